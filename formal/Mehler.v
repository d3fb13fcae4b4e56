(** * Mehler's formula as a two-variable Gaussian integral over the OU pair.

    The Ornstein-Uhlenbeck pair is [(z, z')] with
    [z' = rho z + s w], [s = sqrt (1 - rho^2)], [z] and [w] independent
    standard Gaussians in [R^n]; its expectations are iterated Gaussian
    integrals over [z] (outer) and [w] (inner), [HermiteN.gexpn].  Proved
    here, with no axiom:
    - the Hermite polynomials are eigenfunctions of the OU step:
      [E_w He_b(rho x + s w) = rho^b He_b(x)] (Stein's identity in [w],
      induction on [b]; [ou_hermite]);
    - Mehler's formula: [E_z E_w psi_alpha(z) psi_beta(z')] is [rho^|alpha|]
      if [alpha = beta], else 0 ([mehler_n]);
    - for the model, [E h_i(z) h_l(z') = sum_k coef_{i,k} coef_{l,k} rho^|alpha_k|]
      ([model_ou_corr_n]) and [halignment = 2 sum_i (E h_i(z)^2 - E h_i(z) h_i(z'))]
      ([model_alignment_n]);
    - stationarity: every polynomial is a finite Hermite combination, so
      [E_x E_y f(rho x + s y) = E f] ([ou_stationary_1d]) and
      [E h_i(z') h_l(z') = E h_i(z) h_l(z)] for the model ([model_ou_stationary]);
      hence the coefficient loss [halignment] is the expected squared change
      [E_z E_w |h(z) - h(z')|^2] ([model_alignment_ou]), and Theorems 1 and 3
      for the model hold with every quantity an iterated Gaussian integral of
      [heval] ([forward_identifiability_model_ou], [approx_identifiability_model_ou]). *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz FunctionalExtensionality.
From LejepaId Require Import Prelude Matrix Dirichlet Approximate HermiteModel GaussianMoments HermiteGauss HermitePolar HermiteN.
Open Scope R_scope.

Lemma poly_affine : forall f, IsPoly f -> forall c s, IsPoly (fun y => f (c + s * y)).
Proof.
  intros f Hf. induction Hf as [d|f Hf IH|f g Hf IHf Hg IHg|f g Hf IH E]; intros c s.
  - apply poly_const.
  - apply (poly_ext (fun y => c * f (c + s * y) + s * (y * f (c + s * y)))).
    + apply poly_plus; apply poly_scal; [apply IH | apply poly_xmul, IH].
    + intros y. ring.
  - apply poly_plus; [apply IHf | apply IHg].
  - apply (poly_ext (fun y => f (c + s * y))); [apply IH | intros y; apply E].
Qed.

Lemma He_affine_deriv : forall a c s y,
  is_derive (fun t => He a (c + s * t)) y (s * (INR a * He (pred a) (c + s * y))).
Proof.
  intros a c s y.
  assert (Hg : is_derive (fun t => c + s * t) y s) by (auto_derive; [exact Logic.I | ring]).
  exact (is_derive_comp (He a) (fun t => c + s * t) y _ _ (He_deriv a (c + s * y)) Hg).
Qed.

Lemma gexp_one : gexp (fun _ => 1) = 1.
Proof. unfold gexp. rewrite gint_one. field. apply Rgt_not_eq, Z_pos. Qed.

Lemma gexp_stein : forall f f', IsPoly f -> IsPoly f' -> (forall x, is_derive f x (f' x)) ->
  gexp (fun x => x * f x) = gexp f'.
Proof. intros f f' Hf Hf' Hd. unfold gexp. rewrite (gint_stein f f' Hf Hf' Hd). reflexivity. Qed.

(** The OU step on a Hermite polynomial: [E_w He_b(rho x + s w) = rho^b He_b(x)]
    when [rho^2 + s^2 = 1]. *)
Theorem ou_hermite : forall rho s, rho ^ 2 + s ^ 2 = 1 ->
  forall b x, gexp (fun y => He b (rho * x + s * y)) = rho ^ b * He b x.
Proof.
  intros rho s Hrs.
  assert (H : forall b x, gexp (fun y => He b (rho * x + s * y)) = rho ^ b * He b x /\
                          gexp (fun y => He (S b) (rho * x + s * y)) = rho ^ S b * He (S b) x).
  { induction b as [|b IH]; intros x.
    - split.
      + simpl. rewrite gexp_one. ring.
      + rewrite (gexp_ext _ (fun y => (rho * x) * 1 + s * (y * 1))).
        2: { apply poly_affine, He_poly. }
        2: { intros; simpl; ring. }
        rewrite gexp_lin by (try apply poly_const; apply poly_xmul, poly_const).
        rewrite gexp_one, (gexp_stein (fun _ => 1) (fun _ => 0)) by
          (apply poly_const || (intros; apply (is_derive_const 1))).
        unfold gexp. rewrite gint_zero by reflexivity. unfold Rdiv. change (He 1 x) with x. ring.
    - destruct (IH x) as [H0 H1]. split; [exact H1|].
      set (u := fun y => rho * x + s * y).
      assert (P0 : IsPoly (fun y => He b (u y))) by (apply poly_affine, He_poly).
      assert (P1 : IsPoly (fun y => He (S b) (u y))) by (apply poly_affine, He_poly).
      rewrite (gexp_ext _ (fun y => 1 * ((rho * x) * He (S b) (u y) + s * (y * He (S b) (u y))) +
                                     (- INR (S b)) * He b (u y))).
      2: { apply poly_affine, He_poly. }
      2: { intros y. unfold u. rewrite (He_succ (S b)). simpl pred. ring. }
      rewrite gexp_lin; [| apply poly_plus; apply poly_scal; [exact P1 | apply poly_xmul, P1] | exact P0].
      rewrite gexp_lin by (try exact P1; apply poly_xmul, P1).
      rewrite (gexp_stein (fun y => He (S b) (u y)) (fun y => s * (INR (S b) * He b (u y))) P1)
        by (try (apply poly_scal, poly_scal, P0); intros y; unfold u; apply (He_affine_deriv (S b))).
      rewrite gexp_scal by (apply poly_scal, P0). rewrite gexp_scal by exact P0.
      unfold u. rewrite H0, H1. rewrite (He_succ (S b) x). simpl pred.
      assert (Hs : s * s = 1 - rho * rho) by (simpl in Hrs; lra).
      replace (s * (s * (INR (S b) * (rho ^ b * He b x)))) with ((s * s) * (INR (S b) * (rho ^ b * He b x))) by ring.
      rewrite Hs. simpl. ring. }
  intros b x. exact (proj1 (H b x)).
Qed.

Lemma ou_hn : forall rho s, rho ^ 2 + s ^ 2 = 1 ->
  forall b x, gexp (fun y => hn b (rho * x + s * y)) = rho ^ b * hn b x.
Proof.
  intros rho s Hrs b x.
  rewrite (gexp_ext _ (fun y => / sqrt (INR (fact b)) * He b (rho * x + s * y))).
  2: { apply (poly_ext (fun y => / sqrt (INR (fact b)) * He b (rho * x + s * y))).
       - apply poly_scal, poly_affine, He_poly.
       - intros; unfold hn, Rdiv; ring. }
  2: { intros; unfold hn, Rdiv; ring. }
  rewrite gexp_scal by (apply poly_affine, He_poly). rewrite ou_hermite by exact Hrs.
  unfold hn, Rdiv. ring.
Qed.

(** The second member of the OU pair. *)
Definition ou (rho s : R) (z w : vec) : vec := fun j => rho * z j + s * w j.

Lemma fprod_pow : forall n rho (a : nat -> nat), fprod n (fun j => rho ^ a j) = rho ^ nsum n a.
Proof.
  induction n as [|n IH]; intros rho a; cbn [fprod nsum]; [reflexivity|]. rewrite IH, pow_add. reflexivity.
Qed.

Lemma gexpn_psi_ou : forall n rho s beta z, rho ^ 2 + s ^ 2 = 1 ->
  PolyN n (fun w => psi n beta (ou rho s z w)) /\
  gexpn n (fun w => psi n beta (ou rho s z w)) = rho ^ nsum n beta * psi n beta z.
Proof.
  intros n rho s beta z Hrs.
  assert (E : (fun w => psi n beta (ou rho s z w)) =
              sumprod n 1 (fun _ => 1) (fun _ j y => hn (beta j) (rho * z j + s * y))).
  { apply functional_extensionality. intros w. unfold sumprod, ou. cbn [fsum]. rewrite psi_hn. ring. }
  rewrite E. split; [apply PolyN_sumprod; intros; apply poly_affine, hn_poly|].
  rewrite (proj2 (gexpn_sumprod n 1 (fun _ => 1) _ (fun _ j => poly_affine _ (hn_poly (beta j)) _ _))).
  cbn [fsum]. rewrite (fprod_ext n _ (fun j => rho ^ beta j * hn (beta j) (z j)))
    by (intros; apply ou_hn, Hrs).
  rewrite fprod_mult, fprod_pow, psi_hn. ring.
Qed.

Lemma gexpn_scal : forall n c F, PolyN n F -> PolyN n (fun z => c * F z) /\ gexpn n (fun z => c * F z) = c * gexpn n F.
Proof.
  intros n c F HF. replace (fun z => c * F z) with (fun z => c * F z + 0 * F z)
    by (apply functional_extensionality; intros; ring).
  destruct (gexpn_lin n c 0 F F HF HF) as [P E]. split; [exact P|]. rewrite E. ring.
Qed.

(** Mehler's formula as the two-variable Gaussian integral of the OU pair:
    [E_z E_w psi_alpha(z) psi_beta(rho z + s w)] is [rho^|alpha|] when
    [alpha = beta] on the [n] coordinates and 0 otherwise; every inner
    integral exists. *)
Theorem mehler_n : forall n rho s alpha beta, rho ^ 2 + s ^ 2 = 1 ->
  (forall z, gintegrable n (fun w => psi n alpha z * psi n beta (ou rho s z w))) /\
  gintegrable n (fun z => gexpn n (fun w => psi n alpha z * psi n beta (ou rho s z w))) /\
  gexpn n (fun z => gexpn n (fun w => psi n alpha z * psi n beta (ou rho s z w))) =
  rho ^ nsum n alpha * fprod n (fun j => kron (alpha j) (beta j)).
Proof.
  intros n rho s alpha beta Hrs.
  assert (Hin : forall z, PolyN n (fun w => psi n alpha z * psi n beta (ou rho s z w)) /\
                          gexpn n (fun w => psi n alpha z * psi n beta (ou rho s z w)) =
                          rho ^ nsum n beta * (psi n alpha z * psi n beta z)).
  { intros z. destruct (gexpn_psi_ou n rho s beta z Hrs) as [P E].
    destruct (gexpn_scal n (psi n alpha z) _ P) as [P' E']. split; [exact P'|]. rewrite E', E. ring. }
  assert (Hout : (fun z => gexpn n (fun w => psi n alpha z * psi n beta (ou rho s z w))) =
                 (fun z => rho ^ nsum n beta * (psi n alpha z * psi n beta z))).
  { apply functional_extensionality. intros z. exact (proj2 (Hin z)). }
  assert (Pab : PolyN n (fun z => psi n alpha z * psi n beta z))
    by (rewrite psipsi_sumprod; apply PolyN_sumprod; intros; apply poly_mul; apply hn_poly).
  destruct (gexpn_scal n (rho ^ nsum n beta) _ Pab) as [P E].
  split; [intros z; apply PolyN_gintegrable, (proj1 (Hin z))|].
  rewrite Hout. split; [apply PolyN_gintegrable, P|]. rewrite E, (proj2 (gexpn_psi2 n alpha beta)).
  destruct (multi_index_dec n alpha beta) as [Heq|[j [Hj Hne]]].
  - rewrite (nsum_ext n alpha beta Heq). reflexivity.
  - rewrite (fprod_kron_neq n _ _ j Hj Hne). ring.
Qed.

(** ** The model: the OU correlation and the alignment loss. *)

Lemma gexpn_heval_ou : forall n (h : HEncoder n) l rho s z, rho ^ 2 + s ^ 2 = 1 ->
  PolyN n (fun w => heval h (ou rho s z w) l) /\
  gexpn n (fun w => heval h (ou rho s z w) l) =
  fsum (size h) (fun k => coef h l k * rho ^ hdeg h k * psi n (basis h k) z).
Proof.
  intros n h l rho s z Hrs. unfold heval.
  destruct (gexpn_fsum n (size h) (fun k w => coef h l k * psi n (basis h k) (ou rho s z w))) as [P E].
  { intros k _. exact (proj1 (gexpn_scal n _ _ (proj1 (gexpn_psi_ou n rho s (basis h k) z Hrs)))). }
  split; [exact P|]. rewrite E. apply fsum_ext. intros k _.
  rewrite (proj2 (gexpn_scal n _ _ (proj1 (gexpn_psi_ou n rho s (basis h k) z Hrs)))).
  rewrite (proj2 (gexpn_psi_ou n rho s (basis h k) z Hrs)). unfold hdeg, mdeg. ring.
Qed.

(** The OU correlation of the model: [E_z E_w h_i(z) h_l(z') =
    sum_k coef_{i,k} coef_{l,k} rho^|alpha_k|], every inner integral existing. *)
Theorem model_ou_corr_n : forall n (h : HEncoder n) i l rho s, rho ^ 2 + s ^ 2 = 1 ->
  (forall z, gintegrable n (fun w => heval h z i * heval h (ou rho s z w) l)) /\
  gintegrable n (fun z => gexpn n (fun w => heval h z i * heval h (ou rho s z w) l)) /\
  gexpn n (fun z => gexpn n (fun w => heval h z i * heval h (ou rho s z w) l)) =
  fsum (size h) (fun k => coef h i k * coef h l k * rho ^ hdeg h k).
Proof.
  intros n h i l rho s Hrs.
  assert (Hin : forall z, PolyN n (fun w => heval h z i * heval h (ou rho s z w) l) /\
                  gexpn n (fun w => heval h z i * heval h (ou rho s z w) l) =
                  fsum (size h) (fun k => (coef h l k * rho ^ hdeg h k) * (heval h z i * psi n (basis h k) z))).
  { intros z. destruct (gexpn_heval_ou n h l rho s z Hrs) as [P E].
    destruct (gexpn_scal n (heval h z i) _ P) as [P' E']. split; [exact P'|]. rewrite E', E.
    rewrite <- fsum_scal. apply fsum_ext. intros; ring. }
  assert (Hout : (fun z => gexpn n (fun w => heval h z i * heval h (ou rho s z w) l)) =
                 (fun z => fsum (size h) (fun k => (coef h l k * rho ^ hdeg h k) * (heval h z i * psi n (basis h k) z)))).
  { apply functional_extensionality. intros z. exact (proj2 (Hin z)). }
  assert (Pk : forall k, PolyN n (fun z => heval h z i * psi n (basis h k) z))
    by (intros k; rewrite hpsi_sumprod; apply PolyN_sumprod; intros; apply poly_mul; apply hn_poly).
  destruct (gexpn_fsum n (size h) (fun k z => (coef h l k * rho ^ hdeg h k) * (heval h z i * psi n (basis h k) z)))
    as [P E].
  { intros k _. exact (proj1 (gexpn_scal n _ _ (Pk k))). }
  split; [intros z; apply PolyN_gintegrable, (proj1 (Hin z))|].
  rewrite Hout. split; [apply PolyN_gintegrable, P|]. rewrite E. apply fsum_ext. intros k Hk.
  rewrite (proj2 (gexpn_scal n _ _ (Pk k))), (proj2 (model_coef_n n h i k Hk)). ring.
Qed.

(** The model's alignment loss [halignment] (the coefficient form of
    Mehler's formula) is [2 sum_i (E h_i(z)^2 - E h_i(z) h_i(z'))] for the OU
    pair [z' = rho z + sqrt (1 - rho^2) w], as iterated Gaussian integrals of
    the encoder function. *)
Theorem model_alignment_n : forall n (h : HEncoder n) rho, -1 <= rho <= 1 ->
  halignment h rho =
  fsum n (fun i => 2 * (gexpn n (fun z => heval h z i * heval h z i) -
                        gexpn n (fun z => gexpn n (fun w => heval h z i * heval h (ou rho (sqrt (1 - rho ^ 2)) z w) i)))).
Proof.
  intros n h rho Hr.
  assert (Hrs : rho ^ 2 + sqrt (1 - rho ^ 2) ^ 2 = 1) by (rewrite pow2_sqrt by nra; ring).
  unfold halignment. apply fsum_ext. intros i _.
  rewrite (proj2 (gexpn_heval2 n h i i)), (proj2 (proj2 (model_ou_corr_n n h i i rho _ Hrs))).
  rewrite <- fsum_minus. f_equal. apply fsum_ext. intros; ring.
Qed.

(** ** Stationarity of the OU pair for polynomials, and the alignment loss. *)

(** Finite Hermite combinations [f = sum_{j < N} c_j He_j]. *)
Definition HComb (f : R -> R) : Prop := exists N (c : nat -> R), forall x, f x = fsum N (fun j => c j * He j x).

Lemma fsum_trunc : forall K N (g : nat -> R), (N <= K)%nat ->
  fsum K (fun j => (if Nat.ltb j N then 1 else 0) * g j) = fsum N g.
Proof.
  induction K as [|K IH]; intros N g HNK.
  - replace N with 0%nat by lia. reflexivity.
  - destruct (Nat.eq_dec N (S K)) as [->|Hne].
    + cbn [fsum]. rewrite (fsum_ext K _ g).
      * replace (Nat.ltb K (S K)) with true by (symmetry; apply Nat.ltb_lt; lia). ring.
      * intros j Hj. replace (Nat.ltb j (S K)) with true by (symmetry; apply Nat.ltb_lt; lia). ring.
    + cbn [fsum]. rewrite IH by lia. replace (Nat.ltb K N) with false by (symmetry; apply Nat.ltb_ge; lia). ring.
Qed.

Lemma hcomb_He : forall k, HComb (He k).
Proof.
  intros k. exists (S k), (fun j => kron k j). intros x. symmetry. apply (fsum_kron (S k) k (fun j => He j x)). lia.
Qed.

Lemma hcomb_lin : forall a b f g, HComb f -> HComb g -> HComb (fun x => a * f x + b * g x).
Proof.
  intros a b f g [N [c Hf]] [M [d Hg]].
  exists (N + M)%nat, (fun j => a * ((if Nat.ltb j N then 1 else 0) * c j) + b * ((if Nat.ltb j M then 1 else 0) * d j)).
  intros x. rewrite Hf, Hg.
  rewrite (fsum_ext (N + M) _ (fun j => a * ((if Nat.ltb j N then 1 else 0) * (c j * He j x)) +
                                  b * ((if Nat.ltb j M then 1 else 0) * (d j * He j x)))) by (intros; ring).
  rewrite fsum_plus, !fsum_scal.
  rewrite (fsum_trunc (N + M) N (fun j => c j * He j x)) by lia.
  rewrite (fsum_trunc (N + M) M (fun j => d j * He j x)) by lia. reflexivity.
Qed.

Lemma hcomb_ext : forall f g, HComb f -> (forall x, f x = g x) -> HComb g.
Proof. intros f g [N [c H]] E. exists N, c. intros x. rewrite <- E. apply H. Qed.

Lemma hcomb_fsum : forall N (F : nat -> R -> R), (forall k, HComb (F k)) -> HComb (fun x => fsum N (fun k => F k x)).
Proof.
  induction N as [|N IH]; intros F HF.
  - apply (hcomb_ext (fun x => 0 * He 0 x + 0 * He 0 x)); [apply hcomb_lin; apply hcomb_He | intros; simpl; ring].
  - apply (hcomb_ext (fun x => 1 * fsum N (fun k => F k x) + 1 * F N x)); [apply hcomb_lin; [apply IH, HF | apply HF]|].
    intros; cbn [fsum]; ring.
Qed.

(** [x He_j = He_{j+1} + j He_{j-1}], so multiplication by [x] keeps a finite
    Hermite combination one. *)
Lemma poly_hcomb : forall f, IsPoly f -> HComb f.
Proof.
  intros f Hf. induction Hf as [c|f Hf IH|f g Hf IHf Hg IHg|f g Hf IH E].
  - apply (hcomb_ext (fun x => c * He 0 x + 0 * He 0 x)); [apply hcomb_lin; apply hcomb_He | intros; simpl; ring].
  - destruct IH as [N [c Hc]].
    apply (hcomb_ext (fun x => fsum N (fun j => c j * He (S j) x + (c j * INR j) * He (pred j) x))).
    + apply hcomb_fsum. intros j. apply hcomb_lin; apply hcomb_He.
    + intros x. rewrite Hc, <- fsum_scal. apply fsum_ext. intros j _. rewrite He_succ. ring.
  - apply (hcomb_ext (fun x => 1 * f x + 1 * g x)); [apply hcomb_lin; assumption | intros; ring].
  - exact (hcomb_ext f g IH E).
Qed.

Lemma gexp_He : forall j, gexp (He j) = kron j 0.
Proof.
  intros j. unfold gexp. rewrite (gint_ext (He j) (fun x => He j x * He 0 x)) by (try apply He_poly; intros; simpl; ring).
  rewrite hermite_orth_gint. unfold kron. destruct (Nat.eq_dec j 0) as [->|]; [simpl|]; field; apply Rgt_not_eq, Z_pos.
Qed.

(** The OU step keeps the law: for every polynomial [f],
    [x |-> E_y f(rho x + s y)] is a polynomial and
    [E_x E_y f(rho x + s y) = E f]. *)
Theorem ou_stationary_1d : forall rho s, rho ^ 2 + s ^ 2 = 1 -> forall f, IsPoly f ->
  IsPoly (fun x => gexp (fun y => f (rho * x + s * y))) /\
  gexp (fun x => gexp (fun y => f (rho * x + s * y))) = gexp f.
Proof.
  intros rho s Hrs f Hf. destruct (poly_hcomb f Hf) as [N [c Hc]].
  assert (Hin : forall x, gexp (fun y => f (rho * x + s * y)) = fsum N (fun j => (c j * rho ^ j) * He j x)).
  { intros x. rewrite (gexp_ext _ (fun y => fsum N (fun j => c j * He j (rho * x + s * y)))).
    - rewrite gexp_fsum by (intros j; apply poly_scal, poly_affine, He_poly).
      apply fsum_ext. intros j _. rewrite gexp_scal by (apply poly_affine, He_poly). rewrite ou_hermite by exact Hrs. ring.
    - apply poly_affine, Hf.
    - intros y. apply Hc. }
  split.
  - apply (poly_ext (fun x => fsum N (fun j => (c j * rho ^ j) * He j x))); [|intros; symmetry; apply Hin].
    apply poly_fsum. intros j. apply poly_scal, He_poly.
  - rewrite (gexp_ext _ (fun x => fsum N (fun j => (c j * rho ^ j) * He j x))).
    + rewrite (gexp_ext f (fun x => fsum N (fun j => c j * He j x))) by (try exact Hf; exact Hc).
      rewrite !gexp_fsum by (intros j; apply poly_scal, He_poly).
      apply fsum_ext. intros j _. rewrite !gexp_scal, gexp_He by apply He_poly.
      unfold kron. destruct (Nat.eq_dec j 0) as [->|]; simpl; ring.
    + apply (poly_ext (fun x => fsum N (fun j => (c j * rho ^ j) * He j x))); [|intros; symmetry; apply Hin].
      apply poly_fsum. intros j. apply poly_scal, He_poly.
    + exact Hin.
Qed.

Section OU.
  Variables (rho s : R).
  Hypothesis Hrs : rho ^ 2 + s ^ 2 = 1.

  Definition qou (a b : nat) (x : R) : R := gexp (fun y => hn a (rho * x + s * y) * hn b (rho * x + s * y)).

  Lemma qou_poly : forall a b, IsPoly (qou a b).
  Proof.
    intros a b. exact (proj1 (ou_stationary_1d rho s Hrs (fun u => hn a u * hn b u)
                                (poly_mul _ _ (hn_poly a) (hn_poly b)))).
  Qed.

  Lemma gexp_qou : forall a b, gexp (qou a b) = kron a b.
  Proof.
    intros a b. unfold qou.
    rewrite (proj2 (ou_stationary_1d rho s Hrs (fun u => hn a u * hn b u) (poly_mul _ _ (hn_poly a) (hn_poly b)))).
    apply gexp_hn2.
  Qed.

  Lemma hh_ou_sumprod2 : forall n (h : HEncoder n) i l z,
    (fun w => heval h (ou rho s z w) i * heval h (ou rho s z w) l) =
    sumprod2 n (size h) (size h) (fun k k' => coef h i k * coef h l k')
             (fun k k' j y => hn (basis h k j) (rho * z j + s * y) * hn (basis h k' j) (rho * z j + s * y)).
  Proof.
    intros n h i l z. apply functional_extensionality. intros w. unfold heval, sumprod2. rewrite fsum_mul_fsum.
    apply fsum_ext. intros k _. apply fsum_ext. intros k' _. rewrite !psi_hn, fprod_mult. unfold ou. ring.
  Qed.

  Lemma inner_sq : forall n (h : HEncoder n) i l z,
    PolyN n (fun w => heval h (ou rho s z w) i * heval h (ou rho s z w) l) /\
    gexpn n (fun w => heval h (ou rho s z w) i * heval h (ou rho s z w) l) =
    sumprod2 n (size h) (size h) (fun k k' => coef h i k * coef h l k') (fun k k' j => qou (basis h k j) (basis h k' j)) z.
  Proof.
    intros n h i l z. rewrite hh_ou_sumprod2.
    assert (Hp : forall k k' j, IsPoly (fun y => hn (basis h k j) (rho * z j + s * y) * hn (basis h k' j) (rho * z j + s * y)))
      by (intros; apply poly_mul; apply poly_affine, hn_poly).
    split; [apply PolyN_sumprod2, Hp|]. rewrite (proj2 (gexpn_sumprod2 n _ _ _ _ Hp)). reflexivity.
  Qed.

  (** The OU pair's second member has the law of the first, for the model's
      second moments: [E_z E_w h_i(z') h_l(z') = E h_i(z) h_l(z)]. *)
  Theorem model_ou_stationary : forall n (h : HEncoder n) i l,
    gexpn n (fun z => gexpn n (fun w => heval h (ou rho s z w) i * heval h (ou rho s z w) l)) =
    gexpn n (fun z => heval h z i * heval h z l).
  Proof.
    intros n h i l.
    replace (fun z => gexpn n (fun w => heval h (ou rho s z w) i * heval h (ou rho s z w) l))
      with (sumprod2 n (size h) (size h) (fun k k' => coef h i k * coef h l k') (fun k k' j => qou (basis h k j) (basis h k' j)))
      by (apply functional_extensionality; intros z; symmetry; exact (proj2 (inner_sq n h i l z))).
    rewrite (proj2 (gexpn_sumprod2 n _ _ _ _ (fun k k' j => qou_poly _ _))).
    rewrite (proj2 (gexpn_heval2 n h i l)).
    rewrite (fsum_ext _ _ (fun k => fsum (size h) (fun k' => (kron k k' * 1) * (coef h i k * coef h l k')))).
    - rewrite diag_collapse by (intros k k' _ _; rewrite kron_diag; ring).
      apply fsum_ext. intros k _. rewrite kron_diag. ring.
    - intros k Hk. apply fsum_ext. intros k' Hk'.
      rewrite (fprod_ext n _ (fun j => kron (basis h k j) (basis h k' j))) by (intros; apply gexp_qou).
      rewrite fprod_basis by assumption. ring.
  Qed.
End OU.

Lemma PolyN_const : forall n c, PolyN n (fun _ => c) /\ gexpn n (fun _ => c) = c.
Proof.
  induction n as [|m IH]; intros c; [split; [exact Logic.I | reflexivity]|].
  assert (E : (fun _ : vec => gexp (fun _ => c)) = (fun _ => c)).
  { apply functional_extensionality. intros z.
    rewrite (gexp_ext _ (fun _ => c * 1)) by (try apply poly_const; intros; ring).
    rewrite gexp_scal by apply poly_const. rewrite gexp_one. ring. }
  split.
  - split; [intros; apply poly_const|]. cbn beta. rewrite E. apply IH.
  - cbn [gexpn]. rewrite E. apply IH.
Qed.

(** The model's alignment loss is the expected squared change of the encoder
    over the OU pair, [E_z E_w sum_i (h_i(z) - h_i(z'))^2] with
    [z' = rho z + sqrt (1 - rho^2) w], as iterated Gaussian integrals of
    [heval] (every inner integral exists). *)
Theorem model_alignment_ou : forall n (h : HEncoder n) rho, -1 <= rho <= 1 ->
  (forall z, gintegrable n (fun w => nsq n (vsub (heval h z) (heval h (ou rho (sqrt (1 - rho ^ 2)) z w))))) /\
  gintegrable n (fun z => gexpn n (fun w => nsq n (vsub (heval h z) (heval h (ou rho (sqrt (1 - rho ^ 2)) z w))))) /\
  halignment h rho =
  gexpn n (fun z => gexpn n (fun w => nsq n (vsub (heval h z) (heval h (ou rho (sqrt (1 - rho ^ 2)) z w))))).
Proof.
  intros n h rho Hr. set (s := sqrt (1 - rho ^ 2)).
  assert (Hrs : rho ^ 2 + s ^ 2 = 1) by (unfold s; rewrite pow2_sqrt by nra; ring).
  set (a := fun i z => heval h z i).
  set (B := fun i z w => heval h (ou rho s z w) i).
  set (S := fun i z => fsum (size h) (fun k => coef h i k * rho ^ hdeg h k * psi n (basis h k) z)).
  set (Q2 := fun i => sumprod2 n (size h) (size h) (fun k k' => coef h i k * coef h i k')
                               (fun k k' j => qou rho s (basis h k j) (basis h k' j))).
  (* the inner integral, for fixed z *)
  assert (Hin : forall i z, PolyN n (fun w => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * B i z w) + 1 * (B i z w * B i z w))) /\
                  gexpn n (fun w => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * B i z w) + 1 * (B i z w * B i z w))) =
                  1 * (a i z * a i z) + 1 * ((-2) * (a i z * S i z) + 1 * Q2 i z)).
  { intros i z. unfold B. destruct (PolyN_const n (a i z * a i z)) as [Pc Ec].
    destruct (gexpn_heval_ou n h i rho s z Hrs) as [PB EB].
    destruct (gexpn_scal n (a i z) _ PB) as [PaB EaB].
    destruct (inner_sq rho s n h i i z) as [PBB EBB].
    destruct (gexpn_lin n (-2) 1 _ _ PaB PBB) as [P1 E1].
    destruct (gexpn_lin n 1 1 _ _ Pc P1) as [P2 E2].
    split; [exact P2|]. rewrite E2, E1, EaB, EB, EBB, Ec. unfold S, Q2. ring. }
  assert (Hsq : forall i z w, (a i z - B i z w) * (a i z - B i z w) =
                 1 * (a i z * a i z) + 1 * ((-2) * (a i z * B i z w) + 1 * (B i z w * B i z w))) by (intros; ring).
  (* the outer integrands *)
  assert (PA : forall i, PolyN n (fun z => a i z * a i z)).
  { intros i. unfold a. rewrite hh_sumprod2. apply PolyN_sumprod2. intros; apply poly_mul; apply hn_poly. }
  assert (PS : forall i, PolyN n (fun z => a i z * S i z) /\
                         gexpn n (fun z => a i z * S i z) = fsum (size h) (fun k => coef h i k ^ 2 * rho ^ hdeg h k)).
  { intros i.
    assert (Pk : forall k, PolyN n (fun z => heval h z i * psi n (basis h k) z))
      by (intros k; rewrite hpsi_sumprod; apply PolyN_sumprod; intros; apply poly_mul; apply hn_poly).
    replace (fun z => a i z * S i z)
      with (fun z => fsum (size h) (fun k => (coef h i k * rho ^ hdeg h k) * (heval h z i * psi n (basis h k) z))).
    2: { apply functional_extensionality. intros z. unfold a, S. rewrite <- fsum_scal. apply fsum_ext. intros; ring. }
    destruct (gexpn_fsum n (size h) (fun k z => (coef h i k * rho ^ hdeg h k) * (heval h z i * psi n (basis h k) z)))
      as [P E]; [intros k _; exact (proj1 (gexpn_scal n _ _ (Pk k)))|].
    split; [exact P|]. rewrite E. apply fsum_ext. intros k Hk.
    rewrite (proj2 (gexpn_scal n _ _ (Pk k))), (proj2 (model_coef_n n h i k Hk)). ring. }
  assert (PQ : forall i, PolyN n (Q2 i) /\ gexpn n (Q2 i) = fsum (size h) (fun k => coef h i k * coef h i k)).
  { intros i. split; [apply PolyN_sumprod2; intros; apply qou_poly, Hrs|].
    rewrite <- (proj2 (gexpn_heval2 n h i i)), <- (model_ou_stationary rho s Hrs n h i i).
    f_equal. apply functional_extensionality. intros z. symmetry. exact (proj2 (inner_sq rho s n h i i z)). }
  assert (Hterm : forall i, PolyN n (fun z => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * S i z) + 1 * Q2 i z)) /\
            gexpn n (fun z => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * S i z) + 1 * Q2 i z)) =
            2 * fsum (size h) (fun k => coef h i k ^ 2 * (1 - rho ^ hdeg h k))).
  { intros i. destruct (PS i) as [P1 E1]. destruct (PQ i) as [P2 E2].
    destruct (gexpn_lin n (-2) 1 _ _ P1 P2) as [P3 E3].
    destruct (gexpn_lin n 1 1 _ _ (PA i) P3) as [P4 E4].
    split; [exact P4|]. rewrite E4, E3, E1, E2. unfold a. rewrite (proj2 (gexpn_heval2 n h i i)).
    rewrite (fsum_ext (size h) (fun k => coef h i k ^ 2 * (1 - rho ^ hdeg h k))
               (fun k => coef h i k * coef h i k - coef h i k ^ 2 * rho ^ hdeg h k)) by (intros; ring).
    rewrite fsum_minus. ring. }
  (* the sum over coordinates *)
  assert (Hinner : forall z, (fun w => nsq n (vsub (heval h z) (heval h (ou rho s z w)))) =
                   (fun w => fsum n (fun i => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * B i z w) + 1 * (B i z w * B i z w))))).
  { intros z. apply functional_extensionality. intros w. unfold nsq, dot, vsub. apply fsum_ext. intros i _.
    rewrite <- Hsq. reflexivity. }
  assert (HinN : forall z, PolyN n (fun w => nsq n (vsub (heval h z) (heval h (ou rho s z w)))) /\
                 gexpn n (fun w => nsq n (vsub (heval h z) (heval h (ou rho s z w)))) =
                 fsum n (fun i => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * S i z) + 1 * Q2 i z))).
  { intros z. rewrite Hinner.
    destruct (gexpn_fsum n n (fun i w => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * B i z w) + 1 * (B i z w * B i z w))))
      as [P E]; [intros i _; exact (proj1 (Hin i z))|].
    split; [exact P|]. rewrite E. apply fsum_ext. intros i _. exact (proj2 (Hin i z)). }
  assert (Hout : (fun z => gexpn n (fun w => nsq n (vsub (heval h z) (heval h (ou rho s z w))))) =
                 (fun z => fsum n (fun i => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * S i z) + 1 * Q2 i z)))).
  { apply functional_extensionality. intros z. exact (proj2 (HinN z)). }
  destruct (gexpn_fsum n n (fun i z => 1 * (a i z * a i z) + 1 * ((-2) * (a i z * S i z) + 1 * Q2 i z)))
    as [P E]; [intros i _; exact (proj1 (Hterm i))|].
  split; [intros z; apply PolyN_gintegrable, (proj1 (HinN z))|].
  rewrite Hout. split; [apply PolyN_gintegrable, P|].
  rewrite E. unfold halignment. apply fsum_ext. intros i _. symmetry. exact (proj2 (Hterm i)).
Qed.

(** ** Theorems 1 and 3 for the model with every quantity an integral.

    The alignment loss is [E_z E_w |h(z) - h(z')|^2] over the OU pair,
    iterated Gaussian integrals of the encoder function
    ([model_alignment_ou]: it equals [halignment]). *)
Definition ou_alignment {n} (h : HEncoder n) (rho : R) : R :=
  gexpn n (fun z => gexpn n (fun w => nsq n (vsub (heval h z) (heval h (ou rho (sqrt (1 - rho ^ 2)) z w))))).

Theorem forward_identifiability_model_ou :
  forall n (h : HEncoder n) rho, 0 < rho < 1 -> gwhitened_n h ->
  2 * (1 - rho) * INR n <= ou_alignment h rho /\
  (ou_alignment h rho = 2 * (1 - rho) * INR n ->
   exists Q : mat, orthogonal n Q /\ forall z, veq n (heval h z) (mapply n Q z)).
Proof.
  intros n h rho Hr Hw. unfold ou_alignment.
  rewrite <- (proj2 (proj2 (model_alignment_ou n h rho ltac:(lra)))).
  exact (forward_identifiability_model_n n h rho Hr Hw).
Qed.

Theorem approx_identifiability_model_ou :
  forall n (h : HEncoder n) rho, 0 < rho < 1 -> (forall i, (i < n)%nat -> gexpn n (fun z => heval h z i) = 0) ->
  exists Q, orthogonal n Q /\
    gexpn n (fun z => nsq n (vsub (heval h z) (mapply n Q z))) <=
    thm3_bound rho (ou_alignment h rho - 2 * (1 - rho) *
                    fsum n (fun i => gexpn n (fun z => heval h z i * heval h z i) -
                                     gexpn n (fun z => heval h z i) * gexpn n (fun z => heval h z i)))
               (sqrt (fsum n (fun i => fsum n (fun j =>
                  (gexpn n (fun z => heval h z i * heval h z j) -
                   gexpn n (fun z => heval h z i) * gexpn n (fun z => heval h z j) - kron i j) ^ 2)))).
Proof.
  intros n h rho Hr Hm. unfold ou_alignment.
  rewrite <- (proj2 (proj2 (model_alignment_ou n h rho ltac:(lra)))).
  exact (approx_identifiability_model_n n h rho Hr Hm).
Qed.
