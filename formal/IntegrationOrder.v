(** * The order of the iterated Gaussian integral, for polynomials.

    [HermiteN.gexpn n F] integrates the coordinates of [z] one at a time in a
    fixed order: [z_{n-1}] first, [z_0] last.  Coquelicot has no product
    measure on R^n, so "the Gaussian integral on R^n" is not a notion here;
    what Fubini's theorem says about it that can be stated with iterated
    integrals is that the order does not matter.  This file proves that for
    the integrands of the Hermite model:
    - [fprod_perm]: a finite product is unchanged by a permutation of its
      factors (a permutation of [0, n) is a map with an inverse on [0, n),
      [is_perm]);
    - [gexpn_sumprod_order]: for every polynomial in [n] variables (a finite
      sum of products of one-variable polynomials, [HermiteN.sumprod]) and
      every permutation [sigma] of the coordinates, integrating in the order
      [z_{sigma (n-1)}, ..., z_{sigma 0}] (the function [z => F (z o sigma)]
      under [gexpn n]) gives the same value, and every inner improper
      integral exists in that order too;
    - [gexpn_sumprod2_order], [model_moments_order]: the same for the double
      sums of products, hence for the model's first and second moments
      [E h_i(z)] and [E h_i(z) h_l(z)] of every finite Hermite expansion, so
      its whitening condition ([gwhitened_n]) does not depend on the order of
      integration ([gwhitened_order]);
    - [model_sqerr_order]: the same for the square error [E |h(z) - Q z|^2]
      that Theorem 3 bounds (through [order_free], the integrands whose
      every order gives polynomial stages and one value, closed under sums);
    - [model_alignment_order]: the alignment loss over the OU pair,
      [ou_alignment = E_z E_w |h(z) - h(z')|^2], with the coordinates of [z]
      and those of [w] each integrated in any order (two permutations,
      independent).
    Beyond polynomials: [GaussFubiniN.gexpn_fclass_order] proves the same
    for continuous integrands of polynomial growth ([GaussFubiniN.fclass],
    which contains these polynomials, [GaussFubiniN.sumprod_fclass]), from
    Fubini's theorem for continuous functions proved in [Fubini] and
    [GaussFubini].  Not proved here: the two
    blocks [z], [w] of the OU pair of [Mehler.ou_alignment] are not
    exchanged, nor their coordinates interleaved (that is an order of the
    2n coordinates that [gexpn n] of [gexpn n] cannot express). *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz FunctionalExtensionality.
From LejepaId Require Import Prelude Matrix Dirichlet GaussianMoments HermiteGauss HermiteModel HermiteN Mehler.
Open Scope R_scope.

(** [sigma] is a permutation of [0, n) with inverse [tau]. *)
Definition is_perm (n : nat) (sigma tau : nat -> nat) : Prop :=
  forall j, (j < n)%nat -> (sigma j < n)%nat /\ (tau j < n)%nat /\ tau (sigma j) = j /\ sigma (tau j) = j.

(** The vector [z] with its coordinates relabelled: coordinate [j] of
    [vperm sigma z] is [z_{sigma j}]. *)
Definition vperm (sigma : nat -> nat) (z : vec) : vec := fun j => z (sigma j).

Lemma is_perm_sym : forall n sigma tau, is_perm n sigma tau -> is_perm n tau sigma.
Proof. intros n sigma tau H j Hj. destruct (H j Hj) as [A [B [C D]]]. auto. Qed.

(** The transposition of [k] and [m]. *)
Definition swap (k m j : nat) : nat :=
  if Nat.eq_dec j k then m else if Nat.eq_dec j m then k else j.

Lemma swap_swap : forall k m j, swap k m (swap k m j) = j.
Proof.
  intros k m j. unfold swap.
  destruct (Nat.eq_dec j k); destruct (Nat.eq_dec j m); subst;
    repeat (destruct Nat.eq_dec; subst); congruence.
Qed.

Lemma swap_m : forall k m, swap k m m = k.
Proof. intros k m. unfold swap. destruct (Nat.eq_dec m k); [congruence|]. destruct (Nat.eq_dec m m); congruence. Qed.

Lemma swap_other : forall k m j, j <> k -> j <> m -> swap k m j = j.
Proof. intros k m j H1 H2. unfold swap. destruct (Nat.eq_dec j k); [congruence|]. destruct (Nat.eq_dec j m); congruence. Qed.

Lemma swap_k : forall k m, swap k m k = m.
Proof. intros k m. unfold swap. destruct (Nat.eq_dec k k); congruence. Qed.

(** One factor taken out of a product. *)
Lemma fprod_extract : forall n f k, (k < n)%nat ->
  fprod n f = f k * fprod n (fun j => if Nat.eq_dec j k then 1 else f j).
Proof.
  induction n as [|n IH]; intros f k Hk; [lia|]. cbn [fprod].
  destruct (Nat.eq_dec n k) as [->|Hne].
  - rewrite (fprod_ext k (fun j => if Nat.eq_dec j k then 1 else f j) f).
    + ring.
    + intros j Hj. destruct (Nat.eq_dec j k); [lia | reflexivity].
  - rewrite (IH f k) by lia. ring.
Qed.

(** Exchanging the factor [k] with the last one. *)
Lemma fprod_swap_last : forall n f k, (k <= n)%nat ->
  fprod (S n) (fun j => f (swap k n j)) = fprod (S n) f.
Proof.
  intros n f k Hk. destruct (Nat.eq_dec k n) as [->|Hne].
  - apply fprod_ext. intros j _. unfold swap. destruct (Nat.eq_dec j n); [subst; reflexivity | reflexivity].
  - cbn [fprod]. rewrite swap_m.
    rewrite (fprod_extract n (fun j => f (swap k n j)) k) by lia.
    rewrite (fprod_extract n f k) by lia. rewrite swap_k.
    rewrite (fprod_ext n (fun j => if Nat.eq_dec j k then 1 else f (swap k n j))
                         (fun j => if Nat.eq_dec j k then 1 else f j)).
    + ring.
    + intros j Hj. destruct (Nat.eq_dec j k); [reflexivity|]. rewrite swap_other by lia. reflexivity.
Qed.

(** A finite product does not depend on the order of its factors. *)
Theorem fprod_perm : forall n sigma tau f, is_perm n sigma tau ->
  fprod n (fun j => f (sigma j)) = fprod n f.
Proof.
  induction n as [|n IH]; intros sigma tau f H; [reflexivity|].
  destruct (H n ltac:(lia)) as [_ [Hk [_ Hsk]]].
  set (k := tau n) in *.
  set (sigma' := fun j => sigma (swap k n j)).
  set (tau' := fun j => swap k n (tau j)).
  assert (Hp : is_perm n sigma' tau').
  { intros j Hj. unfold sigma', tau'.
    assert (Hi : (swap k n j < S n)%nat /\ swap k n j <> k).
    { unfold swap. destruct (Nat.eq_dec j k); [split; lia|].
      destruct (Nat.eq_dec j n); [lia | split; lia]. }
    destruct Hi as [Hi1 Hi2].
    destruct (H _ Hi1) as [Hs1 [_ [Hts _]]].
    destruct (H j ltac:(lia)) as [_ [Ht1 [_ Hst]]].
    assert (Htk : tau j <> k).
    { intros E. apply (f_equal sigma) in E. rewrite Hst, Hsk in E. lia. }
    split; [|split; [|split]].
    - assert (sigma (swap k n j) <> n).
      { intros E. apply Hi2. rewrite <- Hts, E. reflexivity. }
      lia.
    - unfold swap. destruct (Nat.eq_dec (tau j) k); [congruence|].
      destruct (Nat.eq_dec (tau j) n) as [E|]; [|lia].
      assert (k <> n) by (intros Ekn; apply Htk; rewrite E, Ekn; reflexivity). lia.
    - rewrite Hts. apply swap_swap.
    - rewrite swap_swap. exact Hst. }
  rewrite (fprod_ext (S n) (fun j => f (sigma j)) (fun j => f (sigma' (swap k n j)))).
  2: { intros j _. unfold sigma'. rewrite swap_swap. reflexivity. }
  rewrite (fprod_swap_last n (fun j => f (sigma' j)) k) by lia.
  cbn [fprod]. rewrite (IH sigma' tau' f Hp). unfold sigma'. rewrite swap_m, Hsk. reflexivity.
Qed.

(** Relabelling the coordinates of a sum of products relabels its factors. *)
Lemma sumprod_vperm : forall n N c p sigma tau, is_perm n sigma tau ->
  (fun z => sumprod n N c p (vperm sigma z)) = sumprod n N c (fun k j => p k (tau j)).
Proof.
  intros n N c p sigma tau H. apply functional_extensionality. intros z.
  unfold sumprod, vperm. apply fsum_ext. intros k _. f_equal.
  rewrite <- (fprod_perm n sigma tau (fun j => p k (tau j) (z j)) H).
  apply fprod_ext. intros j Hj. destruct (H j Hj) as [_ [_ [E _]]]. rewrite E. reflexivity.
Qed.

(** Every order of integration gives the same iterated Gaussian integral of a
    polynomial in [n] variables, and every inner improper integral exists in
    every order.  [gexpn n (fun z => F (vperm sigma z))] integrates [F]'s
    coordinate [tau (n-1)] first and [tau 0] last ([tau] the inverse of
    [sigma]). *)
Theorem gexpn_sumprod_order : forall n N (c : nat -> R) (p : nat -> nat -> R -> R) sigma tau,
  is_perm n sigma tau -> (forall k j, IsPoly (p k j)) ->
  gintegrable n (fun z => sumprod n N c p (vperm sigma z)) /\
  gexpn n (fun z => sumprod n N c p (vperm sigma z)) = gexpn n (sumprod n N c p).
Proof.
  intros n N c p sigma tau H Hp. rewrite (sumprod_vperm n N c p sigma tau H).
  destruct (gexpn_sumprod n N c (fun k j => p k (tau j))) as [Hi He]; [intros; apply Hp|].
  split; [exact Hi|]. rewrite He, (proj2 (gexpn_sumprod n N c p Hp)).
  apply fsum_ext. intros k _. f_equal.
  exact (fprod_perm n tau sigma (fun j => gexp (p k j)) (is_perm_sym n sigma tau H)).
Qed.

(** The same for double sums of products (products of two expansions). *)
Theorem gexpn_sumprod2_order : forall n N M (c : nat -> nat -> R) (p : nat -> nat -> nat -> R -> R) sigma tau,
  is_perm n sigma tau -> (forall k k' j, IsPoly (p k k' j)) ->
  gintegrable n (fun z => sumprod2 n N M c p (vperm sigma z)) /\
  gexpn n (fun z => sumprod2 n N M c p (vperm sigma z)) = gexpn n (sumprod2 n N M c p).
Proof.
  intros n N M c p sigma tau H Hp.
  assert (E : (fun z => sumprod2 n N M c p (vperm sigma z)) =
              (fun z => fsum N (fun k => sumprod n M (c k) (fun k' j => p k k' (tau j)) z))).
  { apply functional_extensionality. intros z. unfold sumprod2. apply fsum_ext. intros k _.
    rewrite <- (sumprod_vperm n M (c k) (p k) sigma tau H). reflexivity. }
  assert (HP : forall k, (k < N)%nat -> PolyN n (sumprod n M (c k) (fun k' j => p k k' (tau j))))
    by (intros k _; apply PolyN_sumprod; intros; apply Hp).
  destruct (gexpn_fsum n N _ HP) as [Pi Pe].
  rewrite E. split; [apply PolyN_gintegrable, Pi|]. rewrite Pe.
  assert (E2 : sumprod2 n N M c p = (fun z => fsum N (fun k => sumprod n M (c k) (p k) z)))
    by reflexivity.
  rewrite E2. rewrite (proj2 (gexpn_fsum n N (fun k => sumprod n M (c k) (p k))
                              (fun k _ => PolyN_sumprod n M (c k) (p k) (Hp k)))).
  apply fsum_ext. intros k _.
  rewrite <- (sumprod_vperm n M (c k) (p k) sigma tau H).
  exact (proj2 (gexpn_sumprod_order n M (c k) (p k) sigma tau H (Hp k))).
Qed.

(** The model's first and second moments, [E h_i(z)] and [E h_i(z) h_l(z)] for
    a finite Hermite expansion [h], are the same iterated Gaussian integrals in
    every order of integration, each inner integral existing. *)
Theorem model_moments_order : forall n (h : HEncoder n) sigma tau, is_perm n sigma tau ->
  forall i l,
  gintegrable n (fun z => heval h (vperm sigma z) i) /\
  gexpn n (fun z => heval h (vperm sigma z) i) = gexpn n (fun z => heval h z i) /\
  gintegrable n (fun z => heval h (vperm sigma z) i * heval h (vperm sigma z) l) /\
  gexpn n (fun z => heval h (vperm sigma z) i * heval h (vperm sigma z) l) =
  gexpn n (fun z => heval h z i * heval h z l).
Proof.
  intros n h sigma tau H i l.
  assert (E1 : (fun z => heval h (vperm sigma z) i) =
               (fun z => sumprod n (size h) (fun k => coef h i k) (fun k j => hn (basis h k j)) (vperm sigma z)))
    by reflexivity.
  assert (E2 : (fun z => heval h (vperm sigma z) i * heval h (vperm sigma z) l) =
               (fun z => sumprod2 n (size h) (size h) (fun k k' => coef h i k * coef h l k')
                           (fun k k' j x => hn (basis h k j) x * hn (basis h k' j) x) (vperm sigma z))).
  { apply functional_extensionality. intros z.
    exact (f_equal (fun F => F (vperm sigma z)) (hh_sumprod2 n h i l)). }
  destruct (gexpn_sumprod_order n (size h) (fun k => coef h i k) (fun k j => hn (basis h k j)) sigma tau H)
    as [I1 V1]; [intros; apply hn_poly|].
  destruct (gexpn_sumprod2_order n (size h) (size h) (fun k k' => coef h i k * coef h l k')
              (fun k k' j x => hn (basis h k j) x * hn (basis h k' j) x) sigma tau H) as [I2 V2].
  { intros; apply poly_mul; apply hn_poly. }
  rewrite E1, E2. split; [exact I1|]. split; [rewrite V1; reflexivity|]. split; [exact I2|].
  rewrite V2, (hh_sumprod2 n h i l). reflexivity.
Qed.

(** Whitening by iterated Gaussian integrals does not depend on the order of
    integration: [h] is whitened ([gwhitened_n]) iff it is whitened with the
    coordinates integrated in the order given by [sigma]. *)
Theorem gwhitened_order : forall n (h : HEncoder n) sigma tau, is_perm n sigma tau ->
  (gwhitened_n h <->
   (forall i, (i < n)%nat -> gexpn n (fun z => heval h (vperm sigma z) i) = 0) /\
   (forall i l, (i < n)%nat -> (l < n)%nat ->
      gexpn n (fun z => heval h (vperm sigma z) i * heval h (vperm sigma z) l) -
      gexpn n (fun z => heval h (vperm sigma z) i) * gexpn n (fun z => heval h (vperm sigma z) l) =
      kron i l)).
Proof.
  intros n h sigma tau H.
  assert (M1 : forall i, gexpn n (fun z => heval h (vperm sigma z) i) = gexpn n (fun z => heval h z i))
    by (intros i; exact (proj1 (proj2 (model_moments_order n h sigma tau H i i)))).
  assert (M2 : forall i l, gexpn n (fun z => heval h (vperm sigma z) i * heval h (vperm sigma z) l) =
                           gexpn n (fun z => heval h z i * heval h z l))
    by (intros i l; exact (proj2 (proj2 (proj2 (model_moments_order n h sigma tau H i l))))).
  unfold gwhitened_n. split; intros [Hm Hc]; split.
  - intros i Hi. rewrite M1. apply Hm, Hi.
  - intros i l Hi Hl. rewrite M2, !M1. apply Hc; assumption.
  - intros i Hi. rewrite <- M1. apply Hm, Hi.
  - intros i l Hi Hl. rewrite <- M2, <- !M1. apply Hc; assumption.
Qed.

(** Not vacuous: the reversal [j => n - 1 - j] is a permutation of [0, n), so
    the iterated integral in the opposite order ([z_0] first) agrees. *)
Lemma is_perm_reverse : forall n, is_perm n (fun j => (n - 1 - j)%nat) (fun j => (n - 1 - j)%nat).
Proof. intros n j Hj. repeat split; lia. Qed.

(** ** Closure: sums and scalings of such integrands.

    [order_free n F]: every inner integrand of [gexpn n F] is a polynomial,
    and the same holds, with the same value, in every order of integration. *)
Definition order_free (n : nat) (F : vec -> R) : Prop :=
  PolyN n F /\
  forall sigma tau, is_perm n sigma tau ->
    PolyN n (fun z => F (vperm sigma z)) /\ gexpn n (fun z => F (vperm sigma z)) = gexpn n F.

Lemma order_free_sumprod : forall n N c p, (forall k j, IsPoly (p k j)) -> order_free n (sumprod n N c p).
Proof.
  intros n N c p Hp. split; [apply PolyN_sumprod, Hp|]. intros sigma tau H.
  split; [rewrite (sumprod_vperm n N c p sigma tau H); apply PolyN_sumprod; intros; apply Hp|].
  exact (proj2 (gexpn_sumprod_order n N c p sigma tau H Hp)).
Qed.

Lemma order_free_lin : forall n a b F G, order_free n F -> order_free n G ->
  order_free n (fun z => a * F z + b * G z).
Proof.
  intros n a b F G [PF HF] [PG HG]. split; [exact (proj1 (gexpn_lin n a b F G PF PG))|].
  intros sigma tau H. destruct (HF sigma tau H) as [PF' EF]. destruct (HG sigma tau H) as [PG' EG].
  destruct (gexpn_lin n a b _ _ PF' PG') as [P E]. split; [exact P|].
  rewrite E, EF, EG. exact (eq_sym (proj2 (gexpn_lin n a b F G PF PG))).
Qed.

Lemma order_free_fsum : forall n N (F : nat -> vec -> R), (forall k, (k < N)%nat -> order_free n (F k)) ->
  order_free n (fun z => fsum N (fun k => F k z)).
Proof.
  intros n N F HF. split; [exact (proj1 (gexpn_fsum n N F (fun k Hk => proj1 (HF k Hk))))|].
  intros sigma tau H.
  destruct (gexpn_fsum n N (fun k z => F k (vperm sigma z)) (fun k Hk => proj1 (proj2 (HF k Hk) sigma tau H)))
    as [P E].
  split; [exact P|]. rewrite E, (proj2 (gexpn_fsum n N F (fun k Hk => proj1 (HF k Hk)))).
  apply fsum_ext. intros k Hk. exact (proj2 (proj2 (HF k Hk) sigma tau H)).
Qed.

Lemma order_free_ext : forall n F G, (forall z, F z = G z) -> order_free n F -> order_free n G.
Proof. intros n F G E HF. replace G with F; [exact HF|]. apply functional_extensionality, E. Qed.

Lemma order_free_sumprod2 : forall n N M c p, (forall k k' j, IsPoly (p k k' j)) ->
  order_free n (sumprod2 n N M c p).
Proof.
  intros n N M c p Hp. apply (order_free_ext n (fun z => fsum N (fun k => sumprod n M (c k) (p k) z)));
    [intros; reflexivity|].
  apply order_free_fsum. intros k _. apply order_free_sumprod. intros; apply Hp.
Qed.

(** The model's square error [E |h(z) - Q z|^2] (the quantity Theorem 3
    bounds) is the same iterated Gaussian integral in every order of
    integration, each inner integral existing. *)
Theorem model_sqerr_order : forall n (h : HEncoder n) (Q : mat) sigma tau, is_perm n sigma tau ->
  gintegrable n (fun z => nsq n (vsub (heval h (vperm sigma z)) (mapply n Q (vperm sigma z)))) /\
  gexpn n (fun z => nsq n (vsub (heval h (vperm sigma z)) (mapply n Q (vperm sigma z)))) =
  gexpn n (fun z => nsq n (vsub (heval h z) (mapply n Q z))).
Proof.
  intros n h Q sigma tau H.
  set (A := fun i z => heval h z i * heval h z i).
  set (B := fun i j z => heval h z i * psi n (ev j) z).
  set (C := fun j j' z => psi n (ev j) z * psi n (ev j') z).
  assert (Hint : forall z, fsum n (fun i => 1 * A i z + (-2) * fsum n (fun j => Q i j * B i j z) +
                                      1 * fsum n (fun j => fsum n (fun j' => (Q i j * Q i j') * C j j' z)))
                   = nsq n (vsub (heval h z) (mapply n Q z))).
  { intros z. unfold nsq, dot. apply fsum_ext. intros i _.
    unfold vsub, mapply, A, B, C.
    rewrite (fsum_ext n (fun j => Q i j * z j) (fun j => Q i j * psi n (ev j) z))
      by (intros j Hj; rewrite psi_ev by exact Hj; reflexivity).
    rewrite (fsum_ext n (fun j => Q i j * (heval h z i * psi n (ev j) z))
               (fun j => heval h z i * (Q i j * psi n (ev j) z))) by (intros; ring).
    rewrite fsum_scal.
    rewrite (fsum_ext n (fun j => fsum n (fun j' => Q i j * Q i j' * (psi n (ev j) z * psi n (ev j') z)))
               (fun j => fsum n (fun j' => (Q i j * psi n (ev j) z) * (Q i j' * psi n (ev j') z))))
      by (intros; apply fsum_ext; intros; ring).
    rewrite <- fsum_mul_fsum. ring. }
  assert (OA : forall i, order_free n (A i)).
  { intros i. apply (order_free_ext n (sumprod2 n (size h) (size h) (fun k k' => coef h i k * coef h i k')
                        (fun k k' j x => hn (basis h k j) x * hn (basis h k' j) x))).
    - intros z. exact (f_equal (fun F => F z) (eq_sym (hh_sumprod2 n h i i))).
    - apply order_free_sumprod2. intros; apply poly_mul; apply hn_poly. }
  assert (OB : forall i j, order_free n (B i j)).
  { intros i j. unfold B. rewrite hpsi_sumprod. apply order_free_sumprod. intros; apply poly_mul; apply hn_poly. }
  assert (OC : forall j j', order_free n (C j j')).
  { intros j j'. unfold C. rewrite psipsi_sumprod. apply order_free_sumprod. intros; apply poly_mul; apply hn_poly. }
  assert (Hscal : forall c F, order_free n F -> order_free n (fun z => c * F z)).
  { intros c F HF. apply (order_free_ext n (fun z => c * F z + 0 * F z)); [intros; ring|].
    apply order_free_lin; exact HF. }
  assert (O : order_free n (fun z => nsq n (vsub (heval h z) (mapply n Q z)))).
  { apply (order_free_ext n _ _ Hint). apply order_free_fsum. intros i _.
    apply (order_free_ext n (fun z => 1 * (1 * A i z + (-2) * fsum n (fun j => Q i j * B i j z)) +
                                      1 * fsum n (fun j => fsum n (fun j' => (Q i j * Q i j') * C j j' z))));
      [intros; ring|].
    apply order_free_lin; [apply order_free_lin; [apply OA|]|].
    - apply order_free_fsum. intros j _. apply Hscal, OB.
    - apply order_free_fsum. intros j _. apply order_free_fsum. intros j' _. apply Hscal, OC. }
  destruct O as [_ HO]. destruct (HO sigma tau H) as [P E].
  split; [exact (PolyN_gintegrable _ _ P) | exact E].
Qed.

Lemma order_free_const : forall n c, order_free n (fun _ => c).
Proof.
  intros n c. split; [exact (proj1 (PolyN_const n c))|].
  intros sigma tau _. split; [exact (proj1 (PolyN_const n c)) | reflexivity].
Qed.

Lemma order_free_scal : forall n c F, order_free n F -> order_free n (fun z => c * F z).
Proof.
  intros n c F HF. apply (order_free_ext n (fun z => c * F z + 0 * F z)); [intros; ring|].
  apply order_free_lin; exact HF.
Qed.

(** ** The alignment loss over the OU pair, in every order of each block.

    [ou_alignment h rho = E_z E_w |h(z) - h(z')|^2] with
    [z' = rho z + sqrt (1 - rho^2) w] integrates the [n] coordinates of [w]
    (inner block) and then those of [z] (outer block), each block in the
    fixed order of [gexpn].  Relabelling the coordinates of [z] by one
    permutation and those of [w] by another, independently, gives the same
    value, every inner integral existing.  (The two blocks are not
    exchanged.) *)
Theorem model_alignment_order : forall n (h : HEncoder n) rho sigma tau sw tw,
  -1 <= rho <= 1 -> is_perm n sigma tau -> is_perm n sw tw ->
  (forall z, gintegrable n (fun w => nsq n (vsub (heval h (vperm sigma z))
                 (heval h (ou rho (sqrt (1 - rho ^ 2)) (vperm sigma z) (vperm sw w)))))) /\
  gintegrable n (fun z => gexpn n (fun w => nsq n (vsub (heval h (vperm sigma z))
                 (heval h (ou rho (sqrt (1 - rho ^ 2)) (vperm sigma z) (vperm sw w)))))) /\
  gexpn n (fun z => gexpn n (fun w => nsq n (vsub (heval h (vperm sigma z))
                 (heval h (ou rho (sqrt (1 - rho ^ 2)) (vperm sigma z) (vperm sw w)))))) =
  ou_alignment h rho.
Proof.
  intros n h rho sigma tau sw tw Hr Hs Hp. unfold ou_alignment. set (s := sqrt (1 - rho ^ 2)).
  assert (Hrs : rho ^ 2 + s ^ 2 = 1) by (unfold s; rewrite pow2_sqrt by nra; ring).
  set (G := fun z w => nsq n (vsub (heval h z) (heval h (ou rho s z w)))).
  set (a := fun i z => heval h z i).
  set (B := fun i z w => heval h (ou rho s z w) i).
  set (Sv := fun i z => fsum (size h) (fun k => coef h i k * rho ^ hdeg h k * psi n (basis h k) z)).
  set (Q2 := fun i => sumprod2 n (size h) (size h) (fun k k' => coef h i k * coef h i k')
                               (fun k k' j => qou rho s (basis h k j) (basis h k' j))).
  set (T := fun i z w => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * B i z w) + 1 * (B i z w * B i z w))).
  assert (HG : forall z w, G z w = fsum n (fun i => T i z w)).
  { intros z w. unfold G, T, nsq, dot, vsub. apply fsum_ext. intros i _. unfold a, B. ring. }
  (* the inner block: for every z, w => G z w is order free *)
  assert (OB : forall i z, order_free n (B i z)).
  { intros i z. apply (order_free_ext n (sumprod n (size h) (fun k => coef h i k)
                        (fun k j y => hn (basis h k j) (rho * z j + s * y)))).
    - intros w. unfold B, heval, sumprod. apply fsum_ext. intros k _. rewrite psi_hn. reflexivity.
    - apply order_free_sumprod. intros k j. apply poly_affine, hn_poly. }
  assert (OBB : forall i z, order_free n (fun w => B i z w * B i z w)).
  { intros i z. apply (order_free_ext n _ _ (fun w => eq_sym (f_equal (fun F => F w) (hh_ou_sumprod2 rho s n h i i z)))).
    apply order_free_sumprod2. intros; apply poly_mul; apply poly_affine, hn_poly. }
  assert (OT : forall i z, order_free n (T i z)).
  { intros i z. unfold T. apply order_free_lin; [apply order_free_const|].
    apply order_free_lin; [apply order_free_scal, OB | apply OBB]. }
  assert (OG : forall z, order_free n (G z)).
  { intros z. apply (order_free_ext n (fun w => fsum n (fun i => T i z w))); [intros w; symmetry; apply HG|].
    apply order_free_fsum. intros i _. apply OT. }
  (* the inner integral, for fixed z, as in Mehler.model_alignment_ou *)
  assert (Hin : forall i z, gexpn n (T i z) = 1 * (a i z * a i z) + 1 * ((-2) * (a i z * Sv i z) + 1 * Q2 i z)).
  { intros i z. unfold T, B. destruct (PolyN_const n (a i z * a i z)) as [Pc Ec].
    destruct (gexpn_heval_ou n h i rho s z Hrs) as [PB EB].
    destruct (gexpn_scal n (a i z) _ PB) as [PaB EaB].
    destruct (inner_sq rho s n h i i z) as [PBB EBB].
    destruct (gexpn_lin n (-2) 1 _ _ PaB PBB) as [P1 E1].
    destruct (gexpn_lin n 1 1 _ _ Pc P1) as [P2 E2].
    rewrite E2, E1, EaB, EB, EBB, Ec. unfold Sv, Q2. ring. }
  set (I := fun z => fsum n (fun i => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * Sv i z) + 1 * Q2 i z))).
  assert (HI : forall z, gexpn n (G z) = I z).
  { intros z. replace (G z) with (fun w => fsum n (fun i => T i z w))
      by (apply functional_extensionality; intros w; symmetry; apply HG).
    rewrite (proj2 (gexpn_fsum n n (fun i => T i z) (fun i _ => proj1 (OT i z)))).
    unfold I. apply fsum_ext. intros i _. apply Hin. }
  (* the outer block: I is order free *)
  assert (OA : forall i, order_free n (fun z => a i z * a i z)).
  { intros i. unfold a. apply (order_free_ext n _ _ (fun z => eq_sym (f_equal (fun F => F z) (hh_sumprod2 n h i i)))).
    apply order_free_sumprod2. intros; apply poly_mul; apply hn_poly. }
  assert (OS : forall i, order_free n (fun z => a i z * Sv i z)).
  { intros i. apply (order_free_ext n (fun z => fsum (size h) (fun k =>
                        (coef h i k * rho ^ hdeg h k) * (heval h z i * psi n (basis h k) z)))).
    - intros z. unfold a, Sv. rewrite <- fsum_scal. apply fsum_ext. intros; ring.
    - apply order_free_fsum. intros k _. apply order_free_scal.
      rewrite hpsi_sumprod. apply order_free_sumprod. intros; apply poly_mul; apply hn_poly. }
  assert (OQ : forall i, order_free n (Q2 i)).
  { intros i. apply order_free_sumprod2. intros; apply qou_poly, Hrs. }
  assert (OI : order_free n I).
  { unfold I. apply order_free_fsum. intros i _. apply order_free_lin; [apply OA|].
    apply order_free_lin; [apply OS | apply OQ]. }
  (* both blocks relabelled *)
  split; [|split].
  - intros z. destruct (proj2 (OG (vperm sigma z)) sw tw Hp) as [P _]. exact (PolyN_gintegrable _ _ P).
  - assert (E : (fun z => gexpn n (fun w => G (vperm sigma z) (vperm sw w))) = (fun z => I (vperm sigma z))).
    { apply functional_extensionality. intros z.
      rewrite (proj2 (proj2 (OG (vperm sigma z)) sw tw Hp)). apply HI. }
    change (gintegrable n (fun z => gexpn n (fun w => G (vperm sigma z) (vperm sw w)))).
    rewrite E. exact (PolyN_gintegrable _ _ (proj1 (proj2 OI sigma tau Hs))).
  - assert (E : (fun z => gexpn n (fun w => G (vperm sigma z) (vperm sw w))) = (fun z => I (vperm sigma z))).
    { apply functional_extensionality. intros z.
      rewrite (proj2 (proj2 (OG (vperm sigma z)) sw tw Hp)). apply HI. }
    assert (E0 : (fun z => gexpn n (G z)) = I) by (apply functional_extensionality; exact HI).
    change (gexpn n (fun z => gexpn n (fun w => G (vperm sigma z) (vperm sw w))) = gexpn n (fun z => gexpn n (G z))).
    rewrite E, (proj2 (proj2 OI sigma tau Hs)), <- E0. reflexivity.
Qed.
