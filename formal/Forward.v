(** * Theorem 1: forward identifiability, Hermite route (docs/model.md, section 9, group 1).

    Part A (fully proved): spectral weights [w_d >= 0], [w_0 = 0],
    [sum w_d = 1] (a Coquelicot series); for [0 < rho < 1] the Mehler series
    [sum w_d rho^d] converges (the published development took this as an
    axiom), is [<= rho], and equality forces [w_d = 0] for every [d >= 2];
    the alignment loss [sum_i 2 (1 - sum_d w_{i,d} rho^d)] of an [n]-coordinate
    whitened encoder is [>= 2 (1 - rho) n] with equality exactly for degree-one
    coordinates.

    Part B (assembled, relative to laws): the notions of Gaussian [L^2]
    analysis (encoders, their Hermite energies, covariance, alignment loss)
    form a record [L2Notions], and the facts used about them the record
    [L2Laws] (laws F1-F3).  For every interpretation satisfying the laws:
    every optimum of the alignment loss among whitened encoders is [h = Q z]
    with [Q] orthogonal; the hypothesis [delta >= 2 rho (1 - rho) W_nl] of
    Theorem 3 ([pythagorean_delta_bound]); and, with the laws T1-T2 of
    [PolarLaws] and the polar factor ([PolarFactor.polar_factor], proved),
    the assembled Theorem 3.  The laws are premises of these
    statements, not axioms; [HermiteModel.v] and [HermitePolar.v] prove
    all of them for a concrete class. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz.
From LejepaId Require Import Prelude Matrix PolarFactor Approximate.
Open Scope R_scope.

(** ** Part A: spectral weights as a real series. *)

Definition spectral_weights (w : nat -> R) : Prop :=
  (forall d, 0 <= w d) /\ w 0%nat = 0 /\ is_series w 1.

Lemma pow_le_rho : forall rho d, 0 < rho < 1 -> (1 <= d)%nat -> rho ^ d <= rho.
Proof.
  intros rho d Hr Hd. destruct d as [|d]; [lia|]. simpl.
  destruct (Nat.eq_dec d 0) as [->|Hne]; [simpl; lra|].
  pose proof (pow_lt_1_compat rho d ltac:(lra) ltac:(lia)). nra.
Qed.

Lemma pow_lt_rho : forall rho d, 0 < rho < 1 -> (2 <= d)%nat -> rho ^ d < rho.
Proof.
  intros rho d Hr Hd. destruct d as [|d]; [lia|]. simpl.
  pose proof (pow_lt_1_compat rho d ltac:(lra) ltac:(lia)). nra.
Qed.

Lemma pow_nonneg_le1 : forall rho d, 0 <= rho <= 1 -> 0 <= rho ^ d <= 1.
Proof.
  intros rho d Hr. split; [apply pow_le; lra|]. rewrite <- (pow1 d). apply pow_incr. lra.
Qed.

(** Summability of the Mehler series (an axiom of the published development,
    proved here by comparison with [sum w_d]). *)
Theorem mehler_summable :
  forall w rho, spectral_weights w -> 0 <= rho <= 1 -> ex_series (fun d => w d * rho ^ d).
Proof.
  intros w rho [Hpos [_ Hsum]] Hr.
  apply (ex_series_le (fun d => w d * rho ^ d) w); [|exists 1; exact Hsum].
  intros d. change (norm (w d * rho ^ d)) with (Rabs (w d * rho ^ d)).
  pose proof (Hpos d). pose proof (pow_nonneg_le1 rho d Hr).
  rewrite Rabs_pos_eq by nra. nra.
Qed.

Lemma mehler_summable_1m :
  forall w rho, spectral_weights w -> 0 <= rho <= 1 -> ex_series (fun d => w d * (1 - rho ^ d)).
Proof.
  intros w rho Hw Hr. destruct Hw as [Hpos [H0 Hsum]].
  apply (ex_series_le (fun d => w d * (1 - rho ^ d)) w); [|exists 1; exact Hsum].
  intros d. change (norm (w d * (1 - rho ^ d))) with (Rabs (w d * (1 - rho ^ d))).
  pose proof (Hpos d). pose proof (pow_nonneg_le1 rho d Hr).
  rewrite Rabs_pos_eq by nra. nra.
Qed.

(** The correlation bound [sum_d w_d rho^d <= rho]. *)
Theorem corr_bound :
  forall w rho, spectral_weights w -> 0 < rho < 1 -> Series (fun d => w d * rho ^ d) <= rho.
Proof.
  intros w rho Hw Hr. pose proof Hw as [Hpos [H0 Hsum]].
  assert (Hb : is_series (fun d => w d * rho) (1 * rho)) by (apply is_series_scal_r; exact Hsum).
  apply Rle_trans with (Series (fun d => w d * rho)); [| rewrite (is_series_unique _ _ Hb); lra].
  apply Series_le; [|exists (1 * rho); exact Hb].
  intros d. pose proof (Hpos d). split; [apply Rmult_le_pos; [lra | apply pow_le; lra]|].
  destruct d as [|d]; [rewrite H0; lra|].
  pose proof (pow_le_rho rho (S d) Hr ltac:(lia)). nra.
Qed.

(** The gap [rho - sum_d w_d rho^d] is the series of the nonnegative terms
    [w_d (rho - rho^d)]. *)
Lemma corr_gap_series :
  forall w rho, spectral_weights w -> 0 < rho < 1 ->
  is_series (fun d => w d * (rho - rho ^ d)) (rho - Series (fun d => w d * rho ^ d)).
Proof.
  intros w rho Hw Hr. pose proof Hw as [Hpos [H0 Hsum]].
  assert (Hb : is_series (fun d => w d * rho) (1 * rho)) by (apply is_series_scal_r; exact Hsum).
  assert (Ha : is_series (fun d => w d * rho ^ d) (Series (fun d => w d * rho ^ d))).
  { apply Series_correct, mehler_summable; [exact Hw | lra]. }
  pose proof (is_series_minus _ _ _ _ Hb Ha) as Hm.
  apply (is_series_ext _ (fun d => w d * (rho - rho ^ d))) in Hm;
    [| intros d; unfold plus, opp; simpl; ring].
  replace (rho - Series (fun d => w d * rho ^ d))
    with (plus (1 * rho) (opp (Series (fun d => w d * rho ^ d)))) by (unfold plus, opp; simpl; ring).
  exact Hm.
Qed.

(** Strict penalty on every degree [>= 2]: equality in the correlation bound
    forces [w_d = 0] for all [d >= 2]; conversely such weights attain it. *)
Theorem corr_equality_iff :
  forall w rho, spectral_weights w -> 0 < rho < 1 ->
  (Series (fun d => w d * rho ^ d) = rho <-> forall d, (2 <= d)%nat -> w d = 0).
Proof.
  intros w rho Hw Hr. pose proof Hw as [Hpos [H0 Hsum]]. split.
  - intros Heq d Hd.
    pose proof (corr_gap_series w rho Hw Hr) as Hg. rewrite Heq, Rminus_eq_0 in Hg.
    assert (Hnn : forall k, 0 <= w k * (rho - rho ^ k)).
    { intros k. pose proof (Hpos k). destruct k as [|k]; [rewrite H0; lra|].
      pose proof (pow_le_rho rho (S k) Hr ltac:(lia)). nra. }
    pose proof (series_nonneg_zero _ Hnn Hg d) as Hz.
    pose proof (pow_lt_rho rho d Hr Hd). pose proof (Hpos d). nra.
  - intros Hnl.
    assert (Hs : is_series (fun d => w d * rho ^ d) (w 0%nat * rho ^ 0 + w 1%nat * rho ^ 1)).
    { apply (is_series_support01 (fun d => w d * rho ^ d)). intros d Hd. rewrite Hnl by exact Hd. ring. }
    pose proof (is_series_support01 w Hnl) as Hw1.
    pose proof (is_series_unique _ _ Hw1) as E1. pose proof (is_series_unique _ _ Hsum) as E2.
    assert (Hw1' : w 1%nat = 1) by (rewrite H0 in E1; lra).
    rewrite (is_series_unique _ _ Hs), H0, Hw1'. simpl. ring.
Qed.

(** ** The alignment loss of an [n]-coordinate whitened encoder, in terms of the
    spectral weights [W i d] of its coordinates (Mehler's formula gives
    [E (h_i(z) - h_i(z'))^2 = 2 (1 - sum_d W i d rho^d)]). *)
Definition align_spec (n : nat) (W : nat -> nat -> R) (rho : R) : R :=
  fsum n (fun i => 2 * (1 - Series (fun d => W i d * rho ^ d))).

Theorem alignment_lower_bound :
  forall n W rho, (forall i, (i < n)%nat -> spectral_weights (W i)) -> 0 < rho < 1 ->
  2 * (1 - rho) * INR n <= align_spec n W rho.
Proof.
  intros n W rho HW Hr. unfold align_spec.
  replace (2 * (1 - rho) * INR n) with (fsum n (fun _ => 2 * (1 - rho)))
    by (rewrite fsum_const; ring).
  apply fsum_le. intros i Hi. pose proof (corr_bound (W i) rho (HW i Hi) Hr). lra.
Qed.

(** Equality case: the bound is attained exactly when every coordinate has
    all of its weight in degree one. *)
Theorem alignment_equality_iff :
  forall n W rho, (forall i, (i < n)%nat -> spectral_weights (W i)) -> 0 < rho < 1 ->
  (align_spec n W rho = 2 * (1 - rho) * INR n <->
   forall i d, (i < n)%nat -> (2 <= d)%nat -> W i d = 0).
Proof.
  intros n W rho HW Hr.
  assert (Hc : 2 * (1 - rho) * INR n = fsum n (fun _ => 2 * (1 - rho)))
    by (rewrite fsum_const; ring).
  split.
  - intros Heq i d Hi Hd. rewrite Hc in Heq. unfold align_spec in Heq.
    assert (Hle : forall j, (j < n)%nat ->
              2 * (1 - rho) <= 2 * (1 - Series (fun d => W j d * rho ^ d))).
    { intros j Hj. pose proof (corr_bound (W j) rho (HW j Hj) Hr). lra. }
    pose proof (fsum_le_eq n _ _ Hle (eq_sym Heq) i Hi) as Hi'.
    apply (proj1 (corr_equality_iff (W i) rho (HW i Hi) Hr)); [lra | exact Hd].
  - intros Hnl. rewrite Hc. unfold align_spec. apply fsum_ext. intros i Hi.
    rewrite (proj2 (corr_equality_iff (W i) rho (HW i Hi) Hr)); [ring|].
    intros d Hd. apply Hnl; assumption.
Qed.

(** ** Part B: the Gaussian [L^2] interface and the assembled theorems.

    The notions of Gaussian [L^2] analysis the proofs talk about form the
    record [L2Notions]; the facts the proofs use about them are the fields of
    the record [L2Laws] (laws F1-F3).  The assembled theorems are stated for
    every interpretation of the notions that satisfies the laws: the laws are
    premises of the statements, not axioms.  Under the intended
    interpretation ([L^2] functions of [z ~ N(0, I_n)]) each law is a standard
    fact of Gaussian analysis; [HermiteModel.v] proves all of them for a
    concrete class (encoders that are finite Hermite expansions), so they
    have a model under their intended meaning and Theorem 1 holds there with
    no premise left. *)

Record L2Notions := {
  (* an encoder of dimension [n]: a map [h : R^n -> R^n], square integrable
     under [z ~ N(0, I_n)] *)
  Encoder : nat -> Type;
  (* evaluation [h z] *)
  eval : forall n, Encoder n -> vec -> vec;
  (* [mean h i = E h_i(z)] *)
  mean : forall n, Encoder n -> nat -> R;
  (* [cov h i j = Cov(h_i(z), h_j(z))] *)
  cov : forall n, Encoder n -> nat -> nat -> R;
  (* [energy h i d = E[(P_d h_i)(z)^2]]: the squared norm of the degree-[d]
     Hermite component of the coordinate [h_i] *)
  energy : forall n, Encoder n -> nat -> nat -> R;
  (* [alignment h rho = E |h(z) - h(z')|^2], [z' = rho z + sqrt(1 - rho^2) eta] *)
  alignment : forall n, Encoder n -> R -> R
}.
Arguments eval {_ _} _ _. Arguments mean {_ _} _ _. Arguments cov {_ _} _ _ _.
Arguments energy {_ _} _ _ _. Arguments alignment {_ _} _ _.

Definition whitened {G : L2Notions} {n} (h : Encoder G n) : Prop :=
  (forall i, (i < n)%nat -> mean h i = 0) /\
  (forall i j, (i < n)%nat -> (j < n)%nat -> cov h i j = kron i j).

Definition is_linear {G : L2Notions} {n} (h : Encoder G n) (A : mat) : Prop :=
  forall z, veq n (eval h z) (mapply n A z).

Record L2Laws (G : L2Notions) : Prop := {
  (* Law F1, Hermite expansion / Parseval: the normalized Hermite
     polynomials form a complete orthonormal basis of [L^2(N(0, I_n))]; the
     energies are nonnegative, the degree-0 one is the squared mean, and they
     add up to [E h_i^2]. *)
  hermite_parseval :
    forall n (h : Encoder G n) i, (i < n)%nat ->
    (forall d, 0 <= energy h i d) /\ energy h i 0%nat = mean h i ^ 2 /\
    is_series (energy h i) (cov h i i + mean h i ^ 2);
  (* Law F2, Mehler's formula: the OU channel multiplies the degree-[d]
     Hermite component by [rho^d], hence
     [E (h_i(z) - h_i(z'))^2 = 2 sum_d energy_{i,d} (1 - rho^d)]. *)
  mehler_alignment :
    forall n (h : Encoder G n) rho, 0 < rho < 1 ->
    alignment h rho = fsum n (fun i => 2 * Series (fun d => energy h i d * (1 - rho ^ d)));
  (* Law F3, degree one implies linear: a centered [L^2] map with no Hermite
     component of degree [>= 2] is [h(z) = A z] (the degree-one Hermite
     polynomials are the coordinates), and [Cov(A z) = A A^T] for
     [z ~ N(0, I_n)]. *)
  degree_one_linear :
    forall n (h : Encoder G n),
    (forall i, (i < n)%nat -> mean h i = 0) ->
    (forall i d, (i < n)%nat -> (2 <= d)%nat -> energy h i d = 0) ->
    exists A, is_linear h A /\
      forall i l, (i < n)%nat -> (l < n)%nat -> fsum n (fun j => A i j * A l j) = cov h i l
}.
Arguments hermite_parseval {_} _ _ _ _ _.
Arguments mehler_alignment {_} _ _ _ _ _.
Arguments degree_one_linear {_} _ _ _ _ _.

(** A whitened encoder's energies are spectral weights. *)
Lemma whitened_spectral :
  forall G (HL : L2Laws G) n (h : Encoder G n), whitened h ->
  forall i, (i < n)%nat -> spectral_weights (energy h i).
Proof.
  intros G HL n h [Hm Hc] i Hi. destruct (hermite_parseval HL n h i Hi) as [Hp [H0 Hs]].
  rewrite Hm in H0, Hs by exact Hi. rewrite Hc in Hs by exact Hi.
  unfold kron in Hs. destruct (Nat.eq_dec i i) as [_|]; [|congruence].
  repeat split; [exact Hp | rewrite H0; ring | ]. replace 1 with (1 + 0 ^ 2) by ring. exact Hs.
Qed.

Lemma alignment_whitened :
  forall G (HL : L2Laws G) n (h : Encoder G n) rho, whitened h -> 0 < rho < 1 ->
  alignment h rho = align_spec n (energy h) rho.
Proof.
  intros G HL n h rho Hw Hr. rewrite (mehler_alignment HL) by exact Hr. unfold align_spec.
  apply fsum_ext. intros i Hi. pose proof (whitened_spectral G HL n h Hw i Hi) as Hs.
  pose proof Hs as [_ [_ Hsum]].
  rewrite (Series_ext _ (fun d => energy h i d - energy h i d * rho ^ d)) by (intros; ring).
  rewrite Series_minus; [| exists 1; exact Hsum | apply mehler_summable; [exact Hs | lra]].
  rewrite (is_series_unique _ _ Hsum). ring.
Qed.

(** A whitened linear encoder [h(z) = A z] with [A A^T = Cov(h)] has an
    orthogonal [A] ([A A^T = I], hence [A^T A = I]: [Matrix.v]). *)
Lemma whitened_gram_orthogonal :
  forall G n (h : Encoder G n) (A : mat), whitened h ->
  (forall i l, (i < n)%nat -> (l < n)%nat -> fsum n (fun j => A i j * A l j) = cov h i l) ->
  orthogonal n A.
Proof.
  intros G n h A [_ Hc] Hg. apply rows_orthonormal_orthogonal.
  intros i l Hi Hl. rewrite Hg by assumption. apply Hc; assumption.
Qed.

(** Theorem 1, assembled, for every interpretation satisfying laws F1-F3:
    among whitened encoders the alignment loss is at least [2 (1 - rho) n],
    and every encoder attaining it is [h = Q z] with [Q] orthogonal. *)
Theorem forward_identifiability :
  forall G, L2Laws G ->
  forall n (h : Encoder G n) rho, 0 < rho < 1 -> whitened h ->
  2 * (1 - rho) * INR n <= alignment h rho /\
  (alignment h rho = 2 * (1 - rho) * INR n -> exists Q, orthogonal n Q /\ is_linear h Q).
Proof.
  intros G HL n h rho Hr Hw. rewrite (alignment_whitened G HL n h rho Hw Hr).
  pose proof (whitened_spectral G HL n h Hw) as HW. split.
  - apply alignment_lower_bound; assumption.
  - intros Heq. pose proof (proj1 (alignment_equality_iff n (energy h) rho HW Hr) Heq) as Hnl.
    destruct (degree_one_linear HL n h (proj1 Hw) Hnl) as [A [HA Hg]].
    exists A. split; [apply (whitened_gram_orthogonal G n h A Hw Hg) | exact HA].
Qed.

(** ** Theorem 3, assembled on the same interface.

    For a centered encoder (not necessarily whitened): the nonlinear mass
    [W_nl = sum_i sum_{d >= 2} energy_{i,d}], the excess loss
    [delta = L_h - 2 (1 - rho) tr Cov(h)], and the covariance defect
    [eps = |Cov(h) - I|_F]. *)
Definition nl_degree (d : nat) : R := if Nat.leb 2 d then 1 else 0.

Definition W_nl {G : L2Notions} {n} (h : Encoder G n) : R :=
  fsum n (fun i => Series (fun d => energy h i d * nl_degree d)).

Definition trace_cov {G : L2Notions} {n} (h : Encoder G n) : R := fsum n (fun i => cov h i i).

Definition delta_excess {G : L2Notions} {n} (h : Encoder G n) (rho : R) : R :=
  alignment h rho - 2 * (1 - rho) * trace_cov h.

Definition cov_defect {G : L2Notions} {n} (h : Encoder G n) : R :=
  sqrt (fsum n (fun i => fsum n (fun j => (cov h i j - kron i j) ^ 2))).

Lemma summable_weighted :
  forall e l c, (forall d, 0 <= e d) -> is_series e l -> (forall d, 0 <= c d <= 1) ->
  ex_series (fun d => e d * c d).
Proof.
  intros e l c He Hs Hc. apply (ex_series_le (fun d => e d * c d) e); [|exists l; exact Hs].
  intros d. change (norm (e d * c d)) with (Rabs (e d * c d)).
  pose proof (He d). pose proof (Hc d). rewrite Rabs_pos_eq by nra. nra.
Qed.

(** The Pythagorean split of the excess loss across Hermite degrees gives the
    hypothesis of Theorem 3: [delta >= 2 rho (1 - rho) W_nl]. *)
Theorem pythagorean_delta_bound :
  forall G, L2Laws G ->
  forall n (h : Encoder G n) rho, 0 < rho < 1 -> (forall i, (i < n)%nat -> mean h i = 0) ->
  kappa rho * W_nl h <= delta_excess h rho.
Proof.
  intros G HL n h rho Hr Hm. unfold delta_excess, W_nl, trace_cov.
  rewrite (mehler_alignment HL) by exact Hr.
  rewrite <- !fsum_scal, <- fsum_minus.
  apply fsum_le. intros i Hi.
  destruct (hermite_parseval HL n h i Hi) as [Hp [H0 Hs]].
  rewrite Hm in H0, Hs by exact Hi. replace (cov h i i + 0 ^ 2) with (cov h i i) in Hs by ring.
  set (e := energy h i) in *.
  assert (Hc1 : forall d, 0 <= 1 - rho ^ d <= 1).
  { intros d. pose proof (pow_nonneg_le1 rho d ltac:(lra)). lra. }
  assert (Hc2 : forall d, 0 <= nl_degree d <= 1).
  { intros d. unfold nl_degree. destruct (Nat.leb 2 d); lra. }
  pose proof (summable_weighted e _ _ Hp Hs Hc1) as E1.
  pose proof (summable_weighted e _ _ Hp Hs Hc2) as E2.
  set (t := fun d => 2 * (e d * (1 - rho ^ d)) - 2 * (1 - rho) * e d - kappa rho * (e d * nl_degree d)).
  pose proof (is_series_minus _ _ _ _
                (is_series_minus _ _ _ _ (is_series_scal_r 2 _ _ (Series_correct _ E1))
                   (is_series_scal_r (2 * (1 - rho)) _ _ Hs))
                (is_series_scal_r (kappa rho) _ _ (Series_correct _ E2))) as Hst.
  apply (is_series_ext _ t) in Hst; [| intros d; unfold t, plus, opp; simpl; ring].
  assert (Hnn : forall d, 0 <= t d).
  { intros d. unfold t. pose proof (Hp d). destruct d as [|[|d]].
    - rewrite H0. unfold nl_degree. simpl. lra.
    - unfold nl_degree. simpl. nra.
    - unfold nl_degree. simpl Nat.leb. cbv iota.
      assert (Hpow : rho ^ S (S d) <= rho ^ 2).
      { replace (S (S d)) with (2 + d)%nat by lia. rewrite pow_add.
        pose proof (pow_nonneg_le1 rho d ltac:(lra)). pose proof (pow2_ge_0 rho). nra. }
      unfold kappa. nra. }
  pose proof (series_nonneg t _ Hnn Hst) as Hfin. unfold plus, opp in Hfin. simpl in Hfin.
  fold e. nra.
Qed.

(** The notions of Theorem 3 beyond [L2Notions]. *)
Record PolarNotions (G : L2Notions) := {
  (* [lin_coef h = M], [M i j = E h_i(z) z_j]: the degree-one Hermite
     coefficient matrix of [h] *)
  lin_coef : forall n, Encoder G n -> mat;
  (* [sqerr h Q = E |h(z) - Q z|^2] *)
  sqerr : forall n, Encoder G n -> mat -> R
}.
Arguments lin_coef {_} _ {_} _ _ _. Arguments sqerr {_} _ {_} _ _.

Record PolarLaws {G : L2Notions} (P : PolarNotions G) : Prop := {
  (* Law T1, covariance split: for a centered [h],
     [Cov(h) = M M^T + Cov(nonlinear part)], and the covariance of the part
     of degree [>= 2] is positive semidefinite with trace [W_nl], hence
     Frobenius norm at most [W_nl]; so [|M M^T - I|_F <= eps + W_nl]. *)
  cov_split :
    forall n (h : Encoder G n), (forall i, (i < n)%nat -> mean h i = 0) ->
    frob n (gram_defect n (lin_coef P h)) <= cov_defect h + W_nl h;
  (* Law T2, Pythagorean split of the square error: the degree-one part
     [M z] and the part of degree [>= 2] of a centered [h] are orthogonal in
     [L^2], so [E |h(z) - Q z|^2 = |M - Q|_F^2 + W_nl] for every matrix [Q]. *)
  procrustes_split :
    forall n (h : Encoder G n) Q, (forall i, (i < n)%nat -> mean h i = 0) ->
    sqerr P h Q <= frob n (mat_sub (lin_coef P h) Q) ^ 2 + W_nl h
}.
Arguments cov_split {_ _} _ _ _ _. Arguments procrustes_split {_ _} _ _ _ _ _.

Lemma W_nl_nonneg : forall G (HL : L2Laws G) n (h : Encoder G n),
  (forall i, (i < n)%nat -> mean h i = 0) -> 0 <= W_nl h.
Proof.
  intros G HL n h Hm. apply fsum_nonneg. intros i Hi.
  destruct (hermite_parseval HL n h i Hi) as [Hp [_ Hs]].
  assert (Hc : forall d, 0 <= nl_degree d <= 1) by (intros d; unfold nl_degree; destruct (Nat.leb 2 d); lra).
  pose proof (summable_weighted _ _ _ Hp Hs Hc) as E.
  apply (series_nonneg (fun d => energy h i d * nl_degree d)); [|apply Series_correct, E].
  intros d. pose proof (Hp d). pose proof (Hc d). nra.
Qed.

(** Theorem 3, assembled, for every interpretation satisfying laws F1-F2
    and T1-T2 (with the polar factor, proved in [PolarFactor.v]): a centered encoder has an
    orthogonal [Q] with [E |h(z) - Q z|^2 <= D + (eps + D)^2],
    [D = delta / (2 rho (1 - rho))]; so its Procrustes error is at most that. *)
Theorem approx_identifiability_assembled :
  forall G (P : PolarNotions G), L2Laws G -> PolarLaws P ->
  forall n (h : Encoder G n) rho, 0 < rho < 1 -> (forall i, (i < n)%nat -> mean h i = 0) ->
  exists Q, orthogonal n Q /\
    sqerr P h Q <= thm3_bound rho (delta_excess h rho) (cov_defect h).
Proof.
  intros G P HL HP n h rho Hr Hm.
  destruct (polar_factor n (lin_coef P h)) as [Q [HQ Hpol]].
  exists Q. split; [exact HQ|].
  eapply Rle_trans; [apply (procrustes_split HP n h Q Hm)|].
  apply approx_identifiability; [exact Hr | apply (W_nl_nonneg G HL), Hm | apply frob_nonneg | |].
  - eapply Rle_trans; [exact Hpol | apply (cov_split HP n h Hm)].
  - apply (pythagorean_delta_bound G HL); assumption.
Qed.
