(** * Theorem 3 for encoders that are finite Hermite expansions.

    For the class of [HermiteModel.v]: the degree-one coefficient matrix
    [M i j = sum_k [|alpha_k| = 1] coef i k (alpha_k)_j] (the degree-one
    Hermite products are the coordinates [z_j]) and the square error
    [E |h(z) - Q z|^2], defined from the coefficients by orthonormality of
    the Hermite products like the other Gaussian quantities of the model:
    [h(z) - Q z] has coefficients [coef i k] off degree one and
    [M i j - Q i j] on [z_j].

    Proved here, with no axiom: the laws T1-T2 of [Forward.PolarLaws] hold
    for the class ([hermite_polar_laws]): [Cov(h) = M M^T + C] with
    [C i l = sum_{|alpha_k| >= 2} coef i k coef l k], a Gram matrix, so
    [|C|_F <= tr C = W_nl] (Cauchy-Schwarz) and
    [|M M^T - I|_F <= |Cov(h) - I|_F + |C|_F]; and the square error is
    [|M - Q|_F^2 + W_nl] for a centered [h].  Theorem 3 for the class
    ([approx_identifiability_model]) then follows with the polar factor
    ([PolarFactor.polar_factor], proved there): no premise and no project
    axiom. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz.
From LejepaId Require Import Prelude Matrix Approximate Forward HermiteModel.
Open Scope R_scope.

(** The degree-one coefficient matrix [M]. *)
Definition hlin {n} (h : HEncoder n) : mat :=
  fun i j => fsum (size h) (fun k => kron (hdeg h k) 1 * coef h i k * INR (basis h k j)).

(** [E |h(z) - Q z|^2]: the squared coefficients off degree one plus
    [|M - Q|_F^2]. *)
Definition hsqerr {n} (h : HEncoder n) (Q : mat) : R :=
  fsum n (fun i => fsum (size h) (fun k => (1 - kron (hdeg h k) 1) * coef h i k ^ 2) +
                   fsum n (fun j => (hlin h i j - Q i j) ^ 2)).

Definition hermite_polar : PolarNotions hermite_notions :=
  Build_PolarNotions hermite_notions (@hlin) (@hsqerr).

Lemma kron_split0 : forall d, 1 - kron d 0 = kron d 1 + nl_degree d.
Proof.
  intros d. unfold kron, nl_degree.
  destruct d as [|[|d]]; cbn [Nat.leb];
    repeat match goal with |- context [Nat.eq_dec ?a ?b] => destruct (Nat.eq_dec a b) end;
    try lia; ring.
Qed.

Lemma kron_split1 : forall d, 1 - kron d 1 = kron d 0 + nl_degree d.
Proof.
  intros d. unfold kron, nl_degree.
  destruct d as [|[|d]]; cbn [Nat.leb];
    repeat match goal with |- context [Nat.eq_dec ?a ?b] => destruct (Nat.eq_dec a b) end;
    try lia; ring.
Qed.

Lemma nl_degree_sq : forall d, nl_degree d * nl_degree d = nl_degree d.
Proof. intros d. unfold nl_degree. destruct (Nat.leb 2 d); ring. Qed.

Lemma kron_sq : forall a b, kron a b * kron a b = kron a b.
Proof. intros a b. unfold kron. destruct (Nat.eq_dec a b); ring. Qed.

(** The nonlinear mass of the model: the squared coefficients of degree [>= 2]. *)
Lemma hermite_W_nl : forall n (h : HEncoder n),
  W_nl (G := hermite_notions) h =
  fsum n (fun i => fsum (size h) (fun k => nl_degree (hdeg h k) * coef h i k ^ 2)).
Proof.
  intros n h. unfold W_nl. apply fsum_ext. intros i _.
  transitivity (fsum (size h) (fun k => coef h i k ^ 2 * nl_degree (hdeg h k))).
  - apply is_series_unique. exact (regroup (size h) (hdeg h) (fun k => coef h i k ^ 2) nl_degree).
  - apply fsum_ext. intros; ring.
Qed.

(** A centered encoder has no coefficient of degree 0. *)
Lemma centered_deg0 : forall n (h : HEncoder n) i, (i < n)%nat -> hmean h i = 0 ->
  fsum (size h) (fun k => kron (hdeg h k) 0 * coef h i k ^ 2) = 0.
Proof.
  intros n h i Hi Hm. destruct (model_parseval n h i) as [_ [H0 _]].
  change (henergy h i 0%nat = 0). rewrite H0, Hm. ring.
Qed.

(** [M M^T] collects the products of the degree-one coefficients. *)
Lemma hlin_gram : forall n (h : HEncoder n) i l,
  fsum n (fun j => hlin h i j * hlin h l j) =
  fsum (size h) (fun k => kron (hdeg h k) 1 * (coef h i k * coef h l k)).
Proof.
  intros n h i l. unfold hlin.
  rewrite (fsum_ext n _ (fun j => fsum (size h) (fun k => fsum (size h) (fun k' =>
      (kron (hdeg h k) 1 * coef h i k * (kron (hdeg h k') 1 * coef h l k')) *
      (INR (basis h k j) * INR (basis h k' j))))))
    by (intros j _; rewrite fsum_mul_fsum; apply fsum_ext; intros k _; apply fsum_ext; intros; ring).
  rewrite fsum_swap. apply fsum_ext. intros k Hk. rewrite fsum_swap.
  rewrite (fsum_ext (size h) _ (fun k' => kron k k' *
      (kron (hdeg h k) 1 * coef h i k * (kron (hdeg h k) 1 * coef h l k)))).
  - rewrite fsum_kron by exact Hk.
    transitivity (kron (hdeg h k) 1 * kron (hdeg h k) 1 * (coef h i k * coef h l k)); [ring|].
    rewrite kron_sq. reflexivity.
  - intros k' Hk'. rewrite fsum_scal.
    assert (Hkk : k <> k' -> kron k k' = 0) by (intros Hne; unfold kron; destruct (Nat.eq_dec k k'); congruence).
    destruct (Nat.eq_dec (hdeg h k) 1) as [H1|H1]; [destruct (Nat.eq_dec (hdeg h k') 1) as [H1'|H1']|].
    + rewrite (basis_dot n h k k' Hk Hk' H1 H1').
      destruct (Nat.eq_dec k k') as [<-|Hne]; [ring | rewrite (Hkk Hne); ring].
    + replace (kron (hdeg h k') 1) with 0 by (unfold kron; destruct (Nat.eq_dec (hdeg h k') 1); congruence).
      destruct (Nat.eq_dec k k') as [<-|Hne]; [congruence | rewrite (Hkk Hne); ring].
    + replace (kron (hdeg h k) 1) with 0 by (unfold kron; destruct (Nat.eq_dec (hdeg h k) 1); congruence). ring.
Qed.

(** The covariance of the part of degree [>= 2]. *)
Definition hcov_nl {n} (h : HEncoder n) : mat :=
  fun i l => fsum (size h) (fun k => nl_degree (hdeg h k) * (coef h i k * coef h l k)).

Lemma hcov_split : forall n (h : HEncoder n) i l,
  hcov h i l = fsum n (fun j => hlin h i j * hlin h l j) + hcov_nl h i l.
Proof.
  intros n h i l. rewrite hlin_gram. unfold hcov, hcov_nl. rewrite <- fsum_plus.
  apply fsum_ext. intros k _. rewrite kron_split0. ring.
Qed.

(** [|C|_F <= tr C = W_nl]: [C] is the Gram matrix of the vectors
    [u_i = (nl_k coef i k)_k], and Cauchy-Schwarz bounds each entry. *)
Lemma frob_hcov_nl : forall n (h : HEncoder n), frob n (hcov_nl h) <= W_nl (G := hermite_notions) h.
Proof.
  intros n h. rewrite hermite_W_nl.
  set (u := fun i k => nl_degree (hdeg h k) * coef h i k).
  set (v := fun i => fsum (size h) (fun k => u i k ^ 2)).
  assert (Hv : forall i, fsum (size h) (fun k => nl_degree (hdeg h k) * coef h i k ^ 2) = v i).
  { intros i. unfold v, u. apply fsum_ext. intros k _. rewrite <- (nl_degree_sq (hdeg h k)) at 1. ring. }
  rewrite (fsum_ext n _ v) by (intros; apply Hv).
  assert (Hc : forall i l, hcov_nl h i l = fsum (size h) (fun k => u i k * u l k)).
  { intros i l. unfold hcov_nl, u. apply fsum_ext. intros k _.
    rewrite <- (nl_degree_sq (hdeg h k)) at 1. ring. }
  unfold frob. apply sqrt_le_of_sq.
  - apply fsum_nonneg. intros i _. apply fsum_nonneg. intros; apply pow2_ge_0.
  - replace (fsum n v ^ 2) with (fsum n (fun i => fsum n (fun l => v i * v l)))
      by (rewrite <- fsum_mul_fsum; ring).
    apply fsum_le. intros i _. apply fsum_le. intros l _. rewrite Hc.
    apply fsum_cauchy_schwarz.
Qed.

(** Law T1 in the model. *)
Theorem hermite_cov_split : forall n (h : HEncoder n),
  frob n (gram_defect n (hlin h)) <= cov_defect (G := hermite_notions) h + W_nl (G := hermite_notions) h.
Proof.
  intros n h.
  rewrite (frob_ext n _ (mat_sub (fun i l => hcov h i l - kron i l) (hcov_nl h)))
    by (intros i l _ _; unfold gram_defect, mat_sub; rewrite (hcov_split n h i l); ring).
  eapply Rle_trans; [apply frob_sub_le|].
  apply Rplus_le_compat; [apply Rle_refl | apply frob_hcov_nl].
Qed.

(** Law T2 in the model (with equality). *)
Theorem hermite_sqerr_split : forall n (h : HEncoder n) Q, (forall i, (i < n)%nat -> hmean h i = 0) ->
  hsqerr h Q = frob n (mat_sub (hlin h) Q) ^ 2 + W_nl (G := hermite_notions) h.
Proof.
  intros n h Q Hm. rewrite frob_sq, hermite_W_nl. unfold hsqerr, mat_sub.
  rewrite <- fsum_plus. apply fsum_ext. intros i Hi.
  rewrite (fsum_ext (size h) (fun k => (1 - kron (hdeg h k) 1) * coef h i k ^ 2)
             (fun k => kron (hdeg h k) 0 * coef h i k ^ 2 + nl_degree (hdeg h k) * coef h i k ^ 2))
    by (intros k _; rewrite kron_split1; ring).
  rewrite fsum_plus, (centered_deg0 n h i Hi (Hm i Hi)). ring.
Qed.

(** The class is a model of the laws T1-T2. *)
Theorem hermite_polar_laws : PolarLaws hermite_polar.
Proof.
  split.
  - intros n h _. exact (hermite_cov_split n h).
  - intros n h Q Hm. apply Req_le. exact (hermite_sqerr_split n h Q Hm).
Qed.

(** Theorem 3 for encoders that are finite Hermite expansions (no premise,
    no project axiom): a centered encoder has an
    orthogonal [Q] with [E |h(z) - Q z|^2 <= D + (eps + D)^2], where
    [D = delta / (2 rho (1 - rho))], [delta] is the excess alignment loss
    and [eps = |Cov(h) - I|_F]. *)
Theorem approx_identifiability_model :
  forall n (h : HEncoder n) rho, 0 < rho < 1 -> (forall i, (i < n)%nat -> hmean h i = 0) ->
  exists Q, orthogonal n Q /\
    hsqerr h Q <= thm3_bound rho (halignment h rho - 2 * (1 - rho) * fsum n (fun i => hcov h i i))
                             (sqrt (fsum n (fun i => fsum n (fun j => (hcov h i j - kron i j) ^ 2)))).
Proof.
  intros n h rho Hr Hm.
  exact (approx_identifiability_assembled hermite_notions hermite_polar hermite_laws hermite_polar_laws
           n h rho Hr Hm).
Qed.
