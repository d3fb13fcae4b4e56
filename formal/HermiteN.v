(** * The model in n dimensions: Gaussian integrals as iterated integrals.

    The standard Gaussian expectation of a function of [z] in [R^n] is
    defined as the iterated one-dimensional expectation
    [gexpn n F = E_{z_0} ... E_{z_{n-1}} F z] with
    [E f = (1 / Z) int f(x) exp (- x^2 / 2) dx] Coquelicot's improper
    integral ([HermiteGauss.gexp]), innermost the last coordinate
    ([gintegrable] records that every inner integral exists).  Proved here,
    with no axiom:
    - a sum of products of one-variable polynomials is integrable at every
      stage and its iterated Gaussian integral is the sum of the products of
      the one-variable integrals ([gexpn_sumprod], by induction on [n]);
    - the normalized Hermite products [psi_alpha] are orthonormal under the
      iterated integral ([hermite_orthonormal_n], by induction on [n]);
    - the model's mean, covariance, coefficients and energies, defined in
      [HermiteModel] from the coefficients, are the iterated Gaussian
      integrals of the encoder function [heval] in every dimension
      ([model_mean_n], [model_cov_n], [model_coef_n], [model_energy_n]). *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz FunctionalExtensionality.
From LejepaId Require Import Prelude Matrix Dirichlet Approximate HermiteModel GaussianMoments HermiteGauss HermitePolar.
Open Scope R_scope.

Local Notation mI := (Rbar_locally m_infty).
Local Notation pI := (Rbar_locally p_infty).

(** [z] with coordinate [m] replaced by [x]. *)
Definition vset (z : vec) (m : nat) (x : R) : vec := fun j => if Nat.eq_dec j m then x else z j.

(** The Gaussian expectation in [n] variables, as iterated integrals: the
    last coordinate is integrated first, then the others; coordinates from
    [n] on are set to 0. *)
Fixpoint gexpn (n : nat) (F : vec -> R) : R :=
  match n with
  | O => F (fun _ => 0)
  | S m => gexpn m (fun z => gexp (fun x => F (vset z m x)))
  end.

(** Every inner integral of [gexpn n F] exists (as an improper integral). *)
Fixpoint gintegrable (n : nat) (F : vec -> R) : Prop :=
  match n with
  | O => True
  | S m => (forall z, ex_RInt_gen (fun x => F (vset z m x) * gauss x) mI pI) /\
           gintegrable m (fun z => gexp (fun x => F (vset z m x)))
  end.

Lemma gexp_fsum : forall N (F : nat -> R -> R), (forall k, IsPoly (F k)) ->
  gexp (fun x => fsum N (fun k => F k x)) = fsum N (fun k => gexp (F k)).
Proof.
  intros N F HF. unfold gexp. rewrite gint_fsum by exact HF. unfold Rdiv.
  rewrite Rmult_comm, <- fsum_scal. apply fsum_ext. intros; ring.
Qed.

Lemma gexp_scal : forall c f, IsPoly f -> gexp (fun x => c * f x) = c * gexp f.
Proof. intros c f Hf. unfold gexp. rewrite gint_scal by exact Hf. unfold Rdiv. ring. Qed.

Lemma gexp_ext : forall f g, IsPoly f -> (forall x, f x = g x) -> gexp f = gexp g.
Proof. intros f g Hf E. unfold gexp. rewrite (gint_ext f g Hf E). reflexivity. Qed.

Lemma ex_gint_poly : forall f, IsPoly f -> ex_RInt_gen (fun x => f x * gauss x) mI pI.
Proof. intros f Hf. exists (gint f). exact (gint_correct f Hf). Qed.

Lemma fprod_vset : forall m (p : nat -> R -> R) z x,
  fprod (S m) (fun j => p j (vset z m x j)) = fprod m (fun j => p j (z j)) * p m x.
Proof.
  intros m p z x. cbn [fprod]. f_equal.
  - apply fprod_ext. intros j Hj. unfold vset. destruct (Nat.eq_dec j m); [lia | reflexivity].
  - unfold vset. destruct (Nat.eq_dec m m); [reflexivity | congruence].
Qed.

Lemma fprod_mult : forall n f g, fprod n (fun j => f j * g j) = fprod n f * fprod n g.
Proof. induction n as [|n IH]; intros f g; cbn [fprod]; [ring | rewrite IH; ring]. Qed.

(** A sum of products of one-variable polynomials:
    [F z = sum_{k < N} c_k prod_{j < n} p_{k,j}(z_j)]. *)
Definition sumprod (n N : nat) (c : nat -> R) (p : nat -> nat -> R -> R) (z : vec) : R :=
  fsum N (fun k => c k * fprod n (fun j => p k j (z j))).

Lemma sumprod_vset : forall m N c p z x,
  sumprod (S m) N c p (vset z m x) = fsum N (fun k => (c k * fprod m (fun j => p k j (z j))) * p k m x).
Proof.
  intros. unfold sumprod. apply fsum_ext. intros k _. rewrite (fprod_vset m (p k)). ring.
Qed.

(** Gaussian integrals of polynomials in [n] variables, as iterated
    one-dimensional integrals: every inner integral exists, and the value is
    [sum_k c_k prod_j E p_{k,j}] (induction on [n]). *)
Theorem gexpn_sumprod : forall n N (c : nat -> R) (p : nat -> nat -> R -> R),
  (forall k j, IsPoly (p k j)) ->
  gintegrable n (sumprod n N c p) /\
  gexpn n (sumprod n N c p) = fsum N (fun k => c k * fprod n (fun j => gexp (p k j))).
Proof.
  induction n as [|m IH]; intros N c p Hp.
  - split; [exact Logic.I | reflexivity].
  - assert (Hpoly : forall z, IsPoly (fun x => sumprod (S m) N c p (vset z m x))).
    { intros z. apply (poly_ext (fun x => fsum N (fun k => (c k * fprod m (fun j => p k j (z j))) * p k m x))).
      - apply poly_fsum. intros k. apply poly_scal, Hp.
      - intros x. rewrite sumprod_vset. reflexivity. }
    assert (Hin : (fun z => gexp (fun x => sumprod (S m) N c p (vset z m x))) =
                  sumprod m N (fun k => c k * gexp (p k m)) p).
    { apply functional_extensionality. intros z.
      rewrite (gexp_ext _ (fun x => fsum N (fun k => (c k * fprod m (fun j => p k j (z j))) * p k m x)))
        by (try apply Hpoly; intros x; apply sumprod_vset).
      rewrite gexp_fsum by (intros k; apply poly_scal, Hp). unfold sumprod. apply fsum_ext. intros k _.
      rewrite gexp_scal by apply Hp. ring. }
    destruct (IH N (fun k => c k * gexp (p k m)) p Hp) as [Hi He].
    split.
    + split; [intros z; apply ex_gint_poly, Hpoly|]. cbn [gintegrable]. rewrite Hin. exact Hi.
    + cbn [gexpn]. rewrite Hin, He. apply fsum_ext. intros k _. cbn [fprod]. ring.
Qed.

(** ** Orthonormality of the Hermite products, by induction on [n]. *)

(** The normalized one-variable Hermite polynomial [He_a / sqrt (a!)]. *)
Definition hn (a : nat) (x : R) : R := He a x / sqrt (INR (fact a)).

Lemma hn_poly : forall a, IsPoly (hn a).
Proof.
  intros a. apply (poly_ext (fun x => / sqrt (INR (fact a)) * He a x)); [apply poly_scal, He_poly|].
  intros x. unfold hn, Rdiv. ring.
Qed.

Lemma hn_psi1 : forall a x, hn a x = psi 1 (fun _ => a) (fun _ => x).
Proof. intros a x. unfold psi, hn. cbn [fprod]. ring. Qed.

Lemma hn0 : forall x, hn 0 x = 1.
Proof. intros x. unfold hn. simpl. rewrite sqrt_1. field. Qed.

Lemma gexp_hn2 : forall a b, gexp (fun x => hn a x * hn b x) = kron a b.
Proof.
  intros a b. unfold gexp.
  rewrite (gint_ext _ (fun x => psi 1 (fun _ => a) (fun _ => x) * psi 1 (fun _ => b) (fun _ => x)))
    by (try (apply poly_mul; apply hn_poly); intros; rewrite !hn_psi1; reflexivity).
  rewrite gint_psi1. field. apply Rgt_not_eq, Z_pos.
Qed.

Lemma gexp_hn : forall a, gexp (hn a) = kron a 0.
Proof.
  intros a. rewrite <- gexp_hn2. apply gexp_ext; [apply hn_poly|]. intros x. rewrite hn0. ring.
Qed.

Lemma psi_hn : forall n alpha z, psi n alpha z = fprod n (fun j => hn (alpha j) (z j)).
Proof. reflexivity. Qed.

Lemma fprod_kron_eq : forall n (a b : nat -> nat),
  (forall j, (j < n)%nat -> a j = b j) -> fprod n (fun j => kron (a j) (b j)) = 1.
Proof.
  induction n as [|n IH]; intros a b H; cbn [fprod]; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H n ltac:(lia)), kron_diag. ring.
Qed.

Lemma fprod_kron_neq : forall n (a b : nat -> nat) j, (j < n)%nat -> a j <> b j ->
  fprod n (fun j => kron (a j) (b j)) = 0.
Proof.
  induction n as [|n IH]; intros a b j Hj Hne; [lia|]. cbn [fprod].
  destruct (Nat.eq_dec j n) as [->|Hjn].
  - unfold kron at 2. destruct (Nat.eq_dec (a n) (b n)); [congruence | ring].
  - rewrite (IH a b j ltac:(lia) Hne). ring.
Qed.

Lemma gexpn_psi2 : forall n alpha beta,
  gintegrable n (fun z => psi n alpha z * psi n beta z) /\
  gexpn n (fun z => psi n alpha z * psi n beta z) = fprod n (fun j => kron (alpha j) (beta j)).
Proof.
  intros n alpha beta.
  assert (E : (fun z => psi n alpha z * psi n beta z) =
              sumprod n 1 (fun _ => 1) (fun _ j x => hn (alpha j) x * hn (beta j) x)).
  { apply functional_extensionality. intros z. unfold sumprod. cbn [fsum].
    rewrite !psi_hn, <- fprod_mult. ring. }
  rewrite E. destruct (gexpn_sumprod n 1 (fun _ => 1) (fun _ j x => hn (alpha j) x * hn (beta j) x))
    as [Hi Hv]; [intros; apply poly_mul; apply hn_poly|].
  split; [exact Hi|]. rewrite Hv. cbn [fsum].
  rewrite (fprod_ext n _ (fun j => kron (alpha j) (beta j))) by (intros; apply gexp_hn2). ring.
Qed.

(** Orthonormality in [n] variables: under the iterated Gaussian integral,
    [E psi_alpha psi_beta] is 1 if [alpha] and [beta] agree on the [n]
    coordinates and 0 otherwise (every inner integral exists). *)
Theorem hermite_orthonormal_n : forall n alpha beta,
  gintegrable n (fun z => psi n alpha z * psi n beta z) /\
  ((forall j, (j < n)%nat -> alpha j = beta j) -> gexpn n (fun z => psi n alpha z * psi n beta z) = 1) /\
  (forall j, (j < n)%nat -> alpha j <> beta j -> gexpn n (fun z => psi n alpha z * psi n beta z) = 0).
Proof.
  intros n alpha beta. destruct (gexpn_psi2 n alpha beta) as [Hi Hv]. rewrite Hv.
  split; [exact Hi|]. split; [apply fprod_kron_eq | intros j Hj Hne; exact (fprod_kron_neq n alpha beta j Hj Hne)].
Qed.

(** ** The model's quantities are the iterated Gaussian integrals of [heval]. *)

Lemma heval_sumprod : forall n (h : HEncoder n) i,
  (fun z => heval h z i) = sumprod n (size h) (fun k => coef h i k) (fun k j => hn (basis h k j)).
Proof. intros. apply functional_extensionality. intros z. reflexivity. Qed.

Lemma fprod_kron0 : forall n (a : nat -> nat), fprod n (fun j => kron (a j) 0) = kron (nsum n a) 0.
Proof.
  induction n as [|n IH]; intros a; cbn [fprod nsum]; [rewrite kron_diag; reflexivity|].
  rewrite IH. unfold kron.
  destruct (Nat.eq_dec (nsum n a) 0); destruct (Nat.eq_dec (a n) 0);
    destruct (Nat.eq_dec (nsum n a + a n) 0); try lia; ring.
Qed.

(** The basis is injective: distinct indices have multi-indices differing
    on some coordinate, so [prod_j [basis k j = basis k' j] = [k = k']]. *)
Lemma fprod_basis : forall n (h : HEncoder n) k k', (k < size h)%nat -> (k' < size h)%nat ->
  fprod n (fun j => kron (basis h k j) (basis h k' j)) = kron k k'.
Proof.
  intros n h k k' Hk Hk'. destruct (Nat.eq_dec k k') as [<-|Hne].
  - rewrite kron_diag. apply fprod_kron_eq. reflexivity.
  - destruct (distinct n h k k' Hk Hk' Hne) as [j [Hj Hd]].
    rewrite (fprod_kron_neq n _ _ j Hj Hd). unfold kron. destruct (Nat.eq_dec k k'); [congruence | reflexivity].
Qed.

(** The mean. *)
Theorem model_mean_n : forall n (h : HEncoder n) i,
  gintegrable n (fun z => heval h z i) /\ gexpn n (fun z => heval h z i) = hmean h i.
Proof.
  intros n h i. rewrite heval_sumprod.
  destruct (gexpn_sumprod n (size h) (fun k => coef h i k) (fun k j => hn (basis h k j)))
    as [Hi Hv]; [intros; apply hn_poly|].
  split; [exact Hi|]. rewrite Hv. unfold hmean. apply fsum_ext. intros k _.
  rewrite (fprod_ext n _ (fun j => kron (basis h k j) 0)) by (intros; apply gexp_hn).
  rewrite fprod_kron0. unfold hdeg, mdeg. ring.
Qed.

(** The coefficient of [h_i] on the basis element [k] is [E h_i psi_{alpha_k}]. *)
Lemma gexpn_heval_psi : forall n (h : HEncoder n) i alpha,
  gintegrable n (fun z => heval h z i * psi n alpha z) /\
  gexpn n (fun z => heval h z i * psi n alpha z) =
  fsum (size h) (fun k => coef h i k * fprod n (fun j => kron (basis h k j) (alpha j))).
Proof.
  intros n h i alpha.
  assert (E : (fun z => heval h z i * psi n alpha z) =
              sumprod n (size h) (fun k => coef h i k) (fun k j x => hn (basis h k j) x * hn (alpha j) x)).
  { apply functional_extensionality. intros z. unfold heval, sumprod.
    rewrite Rmult_comm, <- fsum_scal. apply fsum_ext. intros k _. rewrite !psi_hn, fprod_mult. ring. }
  rewrite E. destruct (gexpn_sumprod n (size h) (fun k => coef h i k) (fun k j x => hn (basis h k j) x * hn (alpha j) x))
    as [Hi Hv]; [intros; apply poly_mul; apply hn_poly|].
  split; [exact Hi|]. rewrite Hv. apply fsum_ext. intros k _.
  rewrite (fprod_ext n _ (fun j => kron (basis h k j) (alpha j))) by (intros; apply gexp_hn2). reflexivity.
Qed.

Theorem model_coef_n : forall n (h : HEncoder n) i k, (k < size h)%nat ->
  gintegrable n (fun z => heval h z i * psi n (basis h k) z) /\
  gexpn n (fun z => heval h z i * psi n (basis h k) z) = coef h i k.
Proof.
  intros n h i k Hk. destruct (gexpn_heval_psi n h i (basis h k)) as [Hi Hv].
  split; [exact Hi|]. rewrite Hv.
  rewrite (fsum_ext _ _ (fun k' => kron k k' * coef h i k'))
    by (intros k' Hk'; rewrite fprod_basis, kron_sym by assumption; ring).
  apply fsum_kron, Hk.
Qed.

(** The degree-[d] energy is the sum of the squared Gaussian coefficients
    [E[h_i psi_alpha]^2] over the basis elements of degree [d], and
    [E[h_i psi_beta] = 0] for a multi-index outside the basis. *)
Theorem model_energy_n : forall n (h : HEncoder n) i d,
  henergy h i d = fsum (size h) (fun k => kron (hdeg h k) d *
                                   gexpn n (fun z => heval h z i * psi n (basis h k) z) ^ 2) /\
  forall beta, (forall k, (k < size h)%nat -> exists j, (j < n)%nat /\ basis h k j <> beta j) ->
    gexpn n (fun z => heval h z i * psi n beta z) = 0.
Proof.
  intros n h i d. split.
  - unfold henergy. apply fsum_ext. intros k Hk. rewrite (proj2 (model_coef_n n h i k Hk)). reflexivity.
  - intros beta Hout. rewrite (proj2 (gexpn_heval_psi n h i beta)).
    transitivity (fsum (size h) (fun _ => 0)); [|rewrite fsum_const; ring].
    apply fsum_ext. intros k Hk. destruct (Hout k Hk) as [j [Hj Hd]]. rewrite (fprod_kron_neq n _ _ j Hj Hd). ring.
Qed.

(** Double sums of products (for products of two expansions). *)
Definition sumprod2 (n N M : nat) (c : nat -> nat -> R) (p : nat -> nat -> nat -> R -> R) (z : vec) : R :=
  fsum N (fun k => fsum M (fun k' => c k k' * fprod n (fun j => p k k' j (z j)))).

Lemma sumprod2_vset : forall m N M c p z x,
  sumprod2 (S m) N M c p (vset z m x) =
  fsum N (fun k => fsum M (fun k' => (c k k' * fprod m (fun j => p k k' j (z j))) * p k k' m x)).
Proof.
  intros. unfold sumprod2. apply fsum_ext. intros k _. apply fsum_ext. intros k' _.
  rewrite (fprod_vset m (p k k')). ring.
Qed.

Theorem gexpn_sumprod2 : forall n N M (c : nat -> nat -> R) (p : nat -> nat -> nat -> R -> R),
  (forall k k' j, IsPoly (p k k' j)) ->
  gintegrable n (sumprod2 n N M c p) /\
  gexpn n (sumprod2 n N M c p) = fsum N (fun k => fsum M (fun k' => c k k' * fprod n (fun j => gexp (p k k' j)))).
Proof.
  induction n as [|m IH]; intros N M c p Hp.
  - split; [exact Logic.I | reflexivity].
  - assert (Hpoly : forall z, IsPoly (fun x => sumprod2 (S m) N M c p (vset z m x))).
    { intros z. apply (poly_ext (fun x => fsum N (fun k => fsum M (fun k' =>
                         (c k k' * fprod m (fun j => p k k' j (z j))) * p k k' m x)))).
      - apply poly_fsum. intros k. apply poly_fsum. intros k'. apply poly_scal, Hp.
      - intros x. rewrite sumprod2_vset. reflexivity. }
    assert (Hin : (fun z => gexp (fun x => sumprod2 (S m) N M c p (vset z m x))) =
                  sumprod2 m N M (fun k k' => c k k' * gexp (p k k' m)) p).
    { apply functional_extensionality. intros z.
      rewrite (gexp_ext _ (fun x => fsum N (fun k => fsum M (fun k' =>
                 (c k k' * fprod m (fun j => p k k' j (z j))) * p k k' m x))))
        by (try apply Hpoly; intros x; apply sumprod2_vset).
      rewrite gexp_fsum by (intros k; apply poly_fsum; intros k'; apply poly_scal, Hp).
      unfold sumprod2. apply fsum_ext. intros k _.
      rewrite gexp_fsum by (intros k'; apply poly_scal, Hp). apply fsum_ext. intros k' _.
      rewrite gexp_scal by apply Hp. ring. }
    destruct (IH N M (fun k k' => c k k' * gexp (p k k' m)) p Hp) as [Hi He].
    split.
    + split; [intros z; apply ex_gint_poly, Hpoly|]. cbn [gintegrable]. rewrite Hin. exact Hi.
    + cbn [gexpn]. rewrite Hin, He. apply fsum_ext. intros k _. apply fsum_ext. intros k' _.
      cbn [fprod]. ring.
Qed.

Lemma gexpn_heval2 : forall n (h : HEncoder n) i l,
  gintegrable n (fun z => heval h z i * heval h z l) /\
  gexpn n (fun z => heval h z i * heval h z l) = fsum (size h) (fun k => coef h i k * coef h l k).
Proof.
  intros n h i l.
  assert (E : (fun z => heval h z i * heval h z l) =
              sumprod2 n (size h) (size h) (fun k k' => coef h i k * coef h l k')
                       (fun k k' j x => hn (basis h k j) x * hn (basis h k' j) x)).
  { apply functional_extensionality. intros z. unfold heval, sumprod2. rewrite fsum_mul_fsum.
    apply fsum_ext. intros k _. apply fsum_ext. intros k' _. rewrite !psi_hn, fprod_mult. ring. }
  rewrite E. destruct (gexpn_sumprod2 n (size h) (size h) (fun k k' => coef h i k * coef h l k')
                         (fun k k' j x => hn (basis h k j) x * hn (basis h k' j) x)) as [Hi Hv];
    [intros; apply poly_mul; apply hn_poly|].
  split; [exact Hi|]. rewrite Hv.
  rewrite (fsum_ext _ _ (fun k => fsum (size h) (fun k' => (kron k k' * 1) * (coef h i k * coef h l k')))).
  - rewrite diag_collapse by (intros k k' _ _; rewrite kron_diag; ring).
    apply fsum_ext. intros k _. rewrite kron_diag. ring.
  - intros k Hk. apply fsum_ext. intros k' Hk'.
    rewrite (fprod_ext n _ (fun j => kron (basis h k j) (basis h k' j))) by (intros; apply gexp_hn2).
    rewrite fprod_basis by assumption. ring.
Qed.

(** The covariance: [E h_i h_l - E h_i E h_l] under the iterated Gaussian
    integral is [hcov h i l], in every dimension. *)
Theorem model_cov_n : forall n (h : HEncoder n) i l,
  gintegrable n (fun z => heval h z i * heval h z l) /\
  gexpn n (fun z => heval h z i * heval h z l) -
  gexpn n (fun z => heval h z i) * gexpn n (fun z => heval h z l) = hcov h i l.
Proof.
  intros n h i l. destruct (gexpn_heval2 n h i l) as [Hi Hv]. split; [exact Hi|].
  rewrite Hv, (proj2 (model_mean_n n h i)), (proj2 (model_mean_n n h l)), hmean_prod.
  unfold hcov. rewrite <- fsum_minus. apply fsum_ext. intros; ring.
Qed.

(** ** Linearity of the iterated integral, and the square error [E |h(z) - Q z|^2]. *)

(** Functions whose inner integrands are polynomials at every stage. *)
Fixpoint PolyN (n : nat) (F : vec -> R) : Prop :=
  match n with
  | O => True
  | S m => (forall z, IsPoly (fun x => F (vset z m x))) /\ PolyN m (fun z => gexp (fun x => F (vset z m x)))
  end.

Lemma PolyN_gintegrable : forall n F, PolyN n F -> gintegrable n F.
Proof.
  induction n as [|m IH]; intros F HF; [exact Logic.I|]. destruct HF as [H1 H2].
  split; [intros z; apply ex_gint_poly, H1 | apply IH, H2].
Qed.

Lemma gexp_lin : forall a b f g, IsPoly f -> IsPoly g ->
  gexp (fun x => a * f x + b * g x) = a * gexp f + b * gexp g.
Proof. intros a b f g Hf Hg. unfold gexp. rewrite gint_lin by assumption. unfold Rdiv. ring. Qed.

Lemma gexpn_lin : forall n a b F G, PolyN n F -> PolyN n G ->
  PolyN n (fun z => a * F z + b * G z) /\
  gexpn n (fun z => a * F z + b * G z) = a * gexpn n F + b * gexpn n G.
Proof.
  induction n as [|m IH]; intros a b F G HF HG; [split; [exact Logic.I | reflexivity]|].
  destruct HF as [HF1 HF2], HG as [HG1 HG2].
  assert (Hin : (fun z => gexp (fun x => a * F (vset z m x) + b * G (vset z m x))) =
                (fun z => a * gexp (fun x => F (vset z m x)) + b * gexp (fun x => G (vset z m x)))).
  { apply functional_extensionality. intros z. apply gexp_lin; [apply HF1 | apply HG1]. }
  destruct (IH a b _ _ HF2 HG2) as [Hp He]. split.
  - split; [intros z; apply poly_plus; apply poly_scal; [apply HF1 | apply HG1]|].
    cbn beta. rewrite Hin. exact Hp.
  - cbn [gexpn]. rewrite Hin. exact He.
Qed.

Lemma PolyN_zero : forall n, PolyN n (fun _ => 0).
Proof.
  induction n as [|m IH]; [exact Logic.I|]. split; [intros; apply poly_const|].
  replace (fun _ : vec => gexp (fun _ => 0)) with (fun _ : vec => 0); [exact IH|].
  apply functional_extensionality. intros z. unfold gexp. rewrite gint_zero by reflexivity. unfold Rdiv. ring.
Qed.

Lemma gexpn_zero : forall n, gexpn n (fun _ => 0) = 0.
Proof.
  induction n as [|m IH]; [reflexivity|]. cbn [gexpn].
  replace (fun _ : vec => gexp (fun _ => 0)) with (fun _ : vec => 0); [exact IH|].
  apply functional_extensionality. intros z. unfold gexp. rewrite gint_zero by reflexivity. unfold Rdiv. ring.
Qed.

Lemma gexpn_fsum : forall n N (F : nat -> vec -> R), (forall k, (k < N)%nat -> PolyN n (F k)) ->
  PolyN n (fun z => fsum N (fun k => F k z)) /\
  gexpn n (fun z => fsum N (fun k => F k z)) = fsum N (fun k => gexpn n (F k)).
Proof.
  intros n N F HF. induction N as [|N IH].
  - split; [apply PolyN_zero | apply gexpn_zero].
  - destruct IH as [Hp He]; [intros; apply HF; lia|].
    replace (fun z => fsum (S N) (fun k => F k z)) with (fun z => 1 * fsum N (fun k => F k z) + 1 * F N z)
      by (apply functional_extensionality; intros z; cbn [fsum]; ring).
    destruct (gexpn_lin n 1 1 _ _ Hp (HF N ltac:(lia))) as [Hp' He'].
    split; [exact Hp'|]. rewrite He', He. cbn [fsum]. ring.
Qed.

Lemma PolyN_sumprod : forall n N c p, (forall k j, IsPoly (p k j)) -> PolyN n (sumprod n N c p).
Proof.
  induction n as [|m IH]; intros N c p Hp; [exact Logic.I|]. split.
  - intros z. apply (poly_ext (fun x => fsum N (fun k => (c k * fprod m (fun j => p k j (z j))) * p k m x))).
    + apply poly_fsum. intros k. apply poly_scal, Hp.
    + intros x. rewrite sumprod_vset. reflexivity.
  - replace (fun z => gexp (fun x => sumprod (S m) N c p (vset z m x)))
      with (sumprod m N (fun k => c k * gexp (p k m)) p); [apply IH, Hp|].
    apply functional_extensionality. intros z.
    rewrite (gexp_ext _ (fun x => fsum N (fun k => (c k * fprod m (fun j => p k j (z j))) * p k m x))).
    + rewrite gexp_fsum by (intros k; apply poly_scal, Hp). unfold sumprod. apply fsum_ext. intros k _.
      rewrite gexp_scal by apply Hp. ring.
    + apply (poly_ext (fun x => fsum N (fun k => (c k * fprod m (fun j => p k j (z j))) * p k m x))).
      * apply poly_fsum. intros k. apply poly_scal, Hp.
      * intros x. rewrite sumprod_vset. reflexivity.
    + intros x. apply sumprod_vset.
Qed.

(** The unit multi-index [e_j], and [psi e_j z = z_j]. *)
Definition ev (j : nat) : nat -> nat := fun j' => if Nat.eq_dec j' j then 1%nat else 0%nat.

Lemma nsum_ev_below : forall m j, (m <= j)%nat -> nsum m (ev j) = 0%nat.
Proof.
  induction m as [|m IH]; intros j Hj; [reflexivity|]. cbn [nsum]. rewrite IH by lia.
  unfold ev. destruct (Nat.eq_dec m j); [lia | reflexivity].
Qed.

Lemma nsum_ev : forall n j, (j < n)%nat -> nsum n (ev j) = 1%nat.
Proof.
  induction n as [|n IH]; intros j Hj; [lia|]. cbn [nsum]. unfold ev at 2.
  destruct (Nat.eq_dec n j) as [->|Hne].
  - rewrite nsum_ev_below by lia. reflexivity.
  - rewrite IH by lia. lia.
Qed.

Lemma psi_ev : forall n j z, (j < n)%nat -> psi n (ev j) z = z j.
Proof.
  intros n j z Hj. rewrite psi_deg1 by (apply nsum_ev, Hj).
  rewrite (fsum_ext n _ (fun j' => kron j j' * z j')); [apply fsum_kron, Hj|].
  intros j' _. unfold ev, kron. destruct (Nat.eq_dec j' j); destruct (Nat.eq_dec j j'); try lia; simpl; ring.
Qed.

Lemma multi_index_dec : forall n (a b : nat -> nat),
  (forall j, (j < n)%nat -> a j = b j) \/ (exists j, (j < n)%nat /\ a j <> b j).
Proof.
  induction n as [|n IH]; intros a b; [left; intros; lia|].
  destruct (IH a b) as [H|[j [Hj Hne]]]; [|right; exists j; split; [lia | exact Hne]].
  destruct (Nat.eq_dec (a n) (b n)) as [E|Hne]; [|right; exists n; split; [lia | exact Hne]].
  left. intros j Hj. destruct (Nat.eq_dec j n) as [->|]; [exact E | apply H; lia].
Qed.

Lemma nsum_ext : forall n (a b : nat -> nat), (forall j, (j < n)%nat -> a j = b j) -> nsum n a = nsum n b.
Proof.
  induction n as [|n IH]; intros a b H; [reflexivity|]. cbn [nsum].
  rewrite (IH a b) by (intros; apply H; lia). rewrite (H n) by lia. reflexivity.
Qed.

(** [E psi_alpha z_j] is 1 exactly when [alpha = e_j], i.e. the degree-one
    coefficient [[|alpha| = 1] alpha_j] of [HermitePolar.hlin]. *)
Lemma fprod_kron_ev : forall n alpha j, (j < n)%nat ->
  fprod n (fun j' => kron (alpha j') (ev j j')) = kron (nsum n alpha) 1 * INR (alpha j).
Proof.
  intros n alpha j Hj. destruct (Nat.eq_dec (nsum n alpha) 1) as [H1|H1].
  - destruct (deg1_unit n alpha H1) as [p [Hp [Hap H0]]].
    rewrite H1, kron_diag, Rmult_1_l. destruct (Nat.eq_dec p j) as [<-|Hpj].
    + rewrite Hap. simpl. apply fprod_kron_eq. intros j' Hj'. unfold ev.
      destruct (Nat.eq_dec j' p) as [->|Hne]; [exact Hap | apply H0; assumption].
    + rewrite (H0 j Hj (fun E => Hpj (eq_sym E))). simpl.
      apply (fprod_kron_neq n _ _ p Hp). unfold ev. destruct (Nat.eq_dec p j); [congruence|]. lia.
  - unfold kron at 2. destruct (Nat.eq_dec (nsum n alpha) 1) as [|_]; [congruence|]. rewrite Rmult_0_l.
    destruct (multi_index_dec n alpha (ev j)) as [Heq|[j' [Hj' Hne]]].
    + exfalso. apply H1. rewrite (nsum_ext n alpha (ev j) Heq). apply nsum_ev, Hj.
    + exact (fprod_kron_neq n _ _ j' Hj' Hne).
Qed.

Lemma PolyN_sumprod2 : forall n N M c p, (forall k k' j, IsPoly (p k k' j)) -> PolyN n (sumprod2 n N M c p).
Proof.
  intros n N M c p Hp.
  exact (proj1 (gexpn_fsum n N (fun k => sumprod n M (c k) (p k)) (fun k _ => PolyN_sumprod n M (c k) (p k) (Hp k)))).
Qed.

Lemma hh_sumprod2 : forall n (h : HEncoder n) i l,
  (fun z => heval h z i * heval h z l) =
  sumprod2 n (size h) (size h) (fun k k' => coef h i k * coef h l k')
           (fun k k' j x => hn (basis h k j) x * hn (basis h k' j) x).
Proof.
  intros n h i l. apply functional_extensionality. intros z. unfold heval, sumprod2. rewrite fsum_mul_fsum.
  apply fsum_ext. intros k _. apply fsum_ext. intros k' _. rewrite !psi_hn, fprod_mult. ring.
Qed.

Lemma hpsi_sumprod : forall n (h : HEncoder n) i alpha,
  (fun z => heval h z i * psi n alpha z) =
  sumprod n (size h) (fun k => coef h i k) (fun k j x => hn (basis h k j) x * hn (alpha j) x).
Proof.
  intros n h i alpha. apply functional_extensionality. intros z. unfold heval, sumprod.
  rewrite Rmult_comm, <- fsum_scal. apply fsum_ext. intros k _. rewrite !psi_hn, fprod_mult. ring.
Qed.

Lemma psipsi_sumprod : forall n alpha beta,
  (fun z => psi n alpha z * psi n beta z) = sumprod n 1 (fun _ => 1) (fun _ j x => hn (alpha j) x * hn (beta j) x).
Proof.
  intros n alpha beta. apply functional_extensionality. intros z. unfold sumprod. cbn [fsum].
  rewrite !psi_hn, <- fprod_mult. ring.
Qed.

Lemma gexpn_ev2 : forall n j j', (j < n)%nat -> (j' < n)%nat ->
  gexpn n (fun z => psi n (ev j) z * psi n (ev j') z) = kron j j'.
Proof.
  intros n j j' Hj Hj'. rewrite (proj2 (gexpn_psi2 n (ev j) (ev j'))).
  destruct (Nat.eq_dec j j') as [<-|Hne].
  - rewrite kron_diag. apply fprod_kron_eq. reflexivity.
  - rewrite (fprod_kron_neq n _ _ j Hj).
    + unfold kron. destruct (Nat.eq_dec j j'); [congruence | reflexivity].
    + unfold ev. destruct (Nat.eq_dec j j); destruct (Nat.eq_dec j j'); congruence.
Qed.

Lemma gexpn_heval_ev : forall n (h : HEncoder n) i j, (j < n)%nat ->
  gexpn n (fun z => heval h z i * psi n (ev j) z) = hlin h i j.
Proof.
  intros n h i j Hj. rewrite (proj2 (gexpn_heval_psi n h i (ev j))). unfold hlin.
  apply fsum_ext. intros k _. rewrite fprod_kron_ev by exact Hj. unfold hdeg, mdeg. ring.
Qed.

(** The square error of the model is the iterated Gaussian integral of
    [|h(z) - Q z|^2], for every matrix [Q], in every dimension. *)
Theorem model_sqerr_n : forall n (h : HEncoder n) (Q : mat),
  gintegrable n (fun z => nsq n (vsub (heval h z) (mapply n Q z))) /\
  gexpn n (fun z => nsq n (vsub (heval h z) (mapply n Q z))) = hsqerr h Q.
Proof.
  intros n h Q.
  set (A := fun i z => heval h z i * heval h z i).
  set (B := fun i j z => heval h z i * psi n (ev j) z).
  set (C := fun j j' z => psi n (ev j) z * psi n (ev j') z).
  assert (PA : forall i, PolyN n (A i)).
  { intros i. unfold A. rewrite hh_sumprod2. apply PolyN_sumprod2. intros; apply poly_mul; apply hn_poly. }
  assert (PB : forall i j, PolyN n (B i j)).
  { intros i j. unfold B. rewrite hpsi_sumprod. apply PolyN_sumprod. intros; apply poly_mul; apply hn_poly. }
  assert (PC : forall j j', PolyN n (C j j')).
  { intros j j'. unfold C. rewrite psipsi_sumprod. apply PolyN_sumprod. intros; apply poly_mul; apply hn_poly. }
  set (Bi := fun i z => fsum n (fun j => Q i j * B i j z)).
  set (Ci := fun i z => fsum n (fun j => fsum n (fun j' => (Q i j * Q i j') * C j j' z))).
  assert (PBi : forall i, PolyN n (Bi i) /\ gexpn n (Bi i) = fsum n (fun j => Q i j * hlin h i j)).
  { intros i. unfold Bi.
    destruct (gexpn_fsum n n (fun j z => Q i j * B i j z)) as [P E].
    { intros j _. replace (fun z => Q i j * B i j z) with (fun z => Q i j * B i j z + 0 * B i j z)
        by (apply functional_extensionality; intros; ring).
      exact (proj1 (gexpn_lin n (Q i j) 0 _ _ (PB i j) (PB i j))). }
    split; [exact P|]. rewrite E. apply fsum_ext. intros j Hj.
    replace (fun z => Q i j * B i j z) with (fun z => Q i j * B i j z + 0 * B i j z)
      by (apply functional_extensionality; intros; ring).
    rewrite (proj2 (gexpn_lin n (Q i j) 0 _ _ (PB i j) (PB i j))). unfold B. rewrite gexpn_heval_ev by exact Hj. ring. }
  assert (Pscal : forall c F, PolyN n F -> PolyN n (fun z => c * F z) /\ gexpn n (fun z => c * F z) = c * gexpn n F).
  { intros c F HF. replace (fun z => c * F z) with (fun z => c * F z + 0 * F z)
      by (apply functional_extensionality; intros; ring).
    destruct (gexpn_lin n c 0 F F HF HF) as [P E]. split; [exact P|]. rewrite E. ring. }
  assert (PCi : forall i, PolyN n (Ci i) /\ gexpn n (Ci i) = fsum n (fun j => Q i j ^ 2)).
  { intros i. unfold Ci.
    assert (Hrow : forall j, (j < n)%nat ->
              PolyN n (fun z => fsum n (fun j' => (Q i j * Q i j') * C j j' z)) /\
              gexpn n (fun z => fsum n (fun j' => (Q i j * Q i j') * C j j' z)) = Q i j ^ 2).
    { intros j Hj. destruct (gexpn_fsum n n (fun j' z => (Q i j * Q i j') * C j j' z)) as [P E].
      { intros j' _. exact (proj1 (Pscal _ _ (PC j j'))). }
      split; [exact P|]. rewrite E.
      rewrite (fsum_ext n _ (fun j' => kron j j' * (Q i j * Q i j'))).
      - rewrite fsum_kron by exact Hj. ring.
      - intros j' Hj'. rewrite (proj2 (Pscal _ _ (PC j j'))). unfold C. rewrite gexpn_ev2 by assumption. ring. }
    destruct (gexpn_fsum n n (fun j z => fsum n (fun j' => (Q i j * Q i j') * C j j' z))) as [P E].
    { intros j Hj. exact (proj1 (Hrow j Hj)). }
    split; [exact P|]. rewrite E. apply fsum_ext. intros j Hj. exact (proj2 (Hrow j Hj)). }
  assert (Hint : (fun z => nsq n (vsub (heval h z) (mapply n Q z))) =
                 (fun z => fsum n (fun i => 1 * A i z + 1 * ((-2) * Bi i z + 1 * Ci i z)))).
  { apply functional_extensionality. intros z. unfold nsq, dot. apply fsum_ext. intros i _.
    unfold vsub, mapply, A, Bi, Ci, B, C.
    rewrite (fsum_ext n (fun j => Q i j * z j) (fun j => Q i j * psi n (ev j) z))
      by (intros j Hj; rewrite psi_ev by exact Hj; reflexivity).
    rewrite (fsum_ext n (fun j => Q i j * (heval h z i * psi n (ev j) z))
               (fun j => heval h z i * (Q i j * psi n (ev j) z))) by (intros; ring).
    rewrite fsum_scal.
    rewrite (fsum_ext n (fun j => fsum n (fun j' => Q i j * Q i j' * (psi n (ev j) z * psi n (ev j') z)))
               (fun j => fsum n (fun j' => (Q i j * psi n (ev j) z) * (Q i j' * psi n (ev j') z))))
      by (intros; apply fsum_ext; intros; ring).
    rewrite <- fsum_mul_fsum. ring. }
  assert (PT : forall i, PolyN n (fun z => 1 * A i z + 1 * ((-2) * Bi i z + 1 * Ci i z)) /\
                         gexpn n (fun z => 1 * A i z + 1 * ((-2) * Bi i z + 1 * Ci i z)) =
                         gexpn n (A i) + ((-2) * fsum n (fun j => Q i j * hlin h i j) + fsum n (fun j => Q i j ^ 2))).
  { intros i. destruct (PBi i) as [P1 E1]. destruct (PCi i) as [P2 E2].
    destruct (gexpn_lin n (-2) 1 _ _ P1 P2) as [P3 E3].
    destruct (gexpn_lin n 1 1 _ _ (PA i) P3) as [P4 E4].
    split; [exact P4|]. rewrite E4, E3, E1, E2. ring. }
  rewrite Hint. destruct (gexpn_fsum n n (fun i z => 1 * A i z + 1 * ((-2) * Bi i z + 1 * Ci i z))) as [P E].
  { intros i _. exact (proj1 (PT i)). }
  split; [exact (PolyN_gintegrable _ _ P)|]. rewrite E. unfold hsqerr. apply fsum_ext. intros i _.
  rewrite (proj2 (PT i)). unfold A. rewrite (proj2 (gexpn_heval2 n h i i)).
  pose proof (hlin_gram n h i i) as Hg.
  rewrite (fsum_ext n (fun j => (hlin h i j - Q i j) ^ 2)
             (fun j => hlin h i j * hlin h i j + ((-2) * (Q i j * hlin h i j) + Q i j ^ 2))) by (intros; ring).
  rewrite !fsum_plus, fsum_scal, Hg.
  rewrite (fsum_ext (size h) (fun k => (1 - kron (hdeg h k) 1) * coef h i k ^ 2)
             (fun k => coef h i k * coef h i k + (-1) * (kron (hdeg h k) 1 * (coef h i k * coef h i k))))
    by (intros; ring).
  rewrite fsum_plus, fsum_scal. ring.
Qed.

(** ** Theorems 1 and 3 for the model, with whitening, centering, covariance
    and square error as iterated Gaussian integrals of [heval] (the alignment
    loss is still [halignment], the coefficient form of Mehler's formula). *)

Definition gwhitened_n {n} (h : HEncoder n) : Prop :=
  (forall i, (i < n)%nat -> gexpn n (fun z => heval h z i) = 0) /\
  (forall i l, (i < n)%nat -> (l < n)%nat ->
     gexpn n (fun z => heval h z i * heval h z l) -
     gexpn n (fun z => heval h z i) * gexpn n (fun z => heval h z l) = kron i l).

Lemma gwhitened_hwhitened : forall n (h : HEncoder n), gwhitened_n h <-> hwhitened h.
Proof.
  intros n h. unfold gwhitened_n, hwhitened. split; intros [Hm Hc]; split.
  - intros i Hi. rewrite <- (proj2 (model_mean_n n h i)). apply Hm, Hi.
  - intros i l Hi Hl. rewrite <- (proj2 (model_cov_n n h i l)). apply Hc; assumption.
  - intros i Hi. rewrite (proj2 (model_mean_n n h i)). apply Hm, Hi.
  - intros i l Hi Hl. rewrite (proj2 (model_cov_n n h i l)). apply Hc; assumption.
Qed.

Theorem forward_identifiability_model_n :
  forall n (h : HEncoder n) rho, 0 < rho < 1 -> gwhitened_n h ->
  2 * (1 - rho) * INR n <= halignment h rho /\
  (halignment h rho = 2 * (1 - rho) * INR n ->
   exists Q : mat, orthogonal n Q /\ forall z, veq n (heval h z) (mapply n Q z)).
Proof.
  intros n h rho Hr Hw. apply forward_identifiability_model; [exact Hr|]. apply gwhitened_hwhitened, Hw.
Qed.

Theorem approx_identifiability_model_n :
  forall n (h : HEncoder n) rho, 0 < rho < 1 -> (forall i, (i < n)%nat -> gexpn n (fun z => heval h z i) = 0) ->
  exists Q, orthogonal n Q /\
    gexpn n (fun z => nsq n (vsub (heval h z) (mapply n Q z))) <=
    thm3_bound rho (halignment h rho - 2 * (1 - rho) *
                    fsum n (fun i => gexpn n (fun z => heval h z i * heval h z i) -
                                     gexpn n (fun z => heval h z i) * gexpn n (fun z => heval h z i)))
               (sqrt (fsum n (fun i => fsum n (fun j =>
                  (gexpn n (fun z => heval h z i * heval h z j) -
                   gexpn n (fun z => heval h z i) * gexpn n (fun z => heval h z j) - kron i j) ^ 2)))).
Proof.
  intros n h rho Hr Hm.
  destruct (approx_identifiability_model n h rho Hr) as [Q [HQ Hb]].
  { intros i Hi. rewrite <- (proj2 (model_mean_n n h i)). apply Hm, Hi. }
  exists Q. split; [exact HQ|]. rewrite (proj2 (model_sqerr_n n h Q)).
  rewrite (fsum_ext n _ (fun i => hcov h i i)) by (intros i _; apply (proj2 (model_cov_n n h i i))).
  rewrite (fsum_ext n (fun i => fsum n (fun j => (_ - _ - kron i j) ^ 2))
             (fun i => fsum n (fun j => (hcov h i j - kron i j) ^ 2)))
    by (intros i _; apply fsum_ext; intros j _; rewrite (proj2 (model_cov_n n h i j)); reflexivity).
  exact Hb.
Qed.
