(** * Alternative forward proof via the Dirichlet energy (docs/model.md, section 9, group 4).

    The route: in the small-noise limit the alignment loss is the Dirichlet
    energy [E |J_h(z)|_F^2]; the Gaussian-preservation constraint fixes
    [E log |det J_h|]; AM-GM on the squared singular values and Jensen on the
    exponential give [E |J_h|_F^2 >= n], with equality only for an orthogonal
    Jacobian; an orthogonal Jacobian makes [h] 1-Lipschitz; the same for the
    inverse makes [h] an isometry; an isometry of [R^n] fixing [0] is linear
    (Mazur-Ulam); hence [h = Q z] with [Q^T Q = I].

    Proved here: AM-GM for uniform weights with its equality case; Jensen's
    inequality for [exp] from the defining properties of an expectation
    (positivity, linearity, normalization); the energy bound [E |J|_F^2 >= n]
    and its equality case for a faithful expectation (energy exactly [n]
    makes every squared singular value 1 at every sample);
    Cauchy-Schwarz; a norm-preserving linear map is an isometry; an orthogonal
    (norm-preserving) Jacobian implies 1-Lipschitz (mean value theorem along
    segments); bi-Lipschitz with constant 1 implies a global isometry; an
    isometry of [R^n] fixing [0] is linear (the Euclidean case of Mazur-Ulam,
    by polarization); the assembled [h = Q z].  The published development took
    AM-GM, Jensen and Mazur-Ulam as axioms; this file declares no axiom.

    With the Jacobian itself (end of the file, [n = 2]): the energies are
    defined from [J^T J] (its trace [|J|_F^2] and [ln det]); the
    trace-determinant AM-GM for a positive semidefinite 2 x 2 matrix with its
    equality case [A = c I]; the energy bound and its equality case
    [J^T J = I] at every sample; the assembled [h = Q z] with no
    orthogonal-Jacobian hypothesis (it follows from the energies of [h] and
    of its inverse), and a witness that its hypotheses can all hold.

    Every dimension (last two sections): an [n x n] determinant (Laplace
    expansion along the first column, equal to the 2 x 2 and 3 x 3 formulas),
    [det (C^T C) = prod_i C_ii^2] for [C] upper triangular, and a Cholesky
    factor of [J^T J] whenever [det (J^T J) > 0]; with the volume term
    [ln det (J^T J)], [n det (J^T J)^(1/n) <= tr (J^T J)] with equality only
    for [J^T J = I] at volume 1 gives the energy bound, its equality case and
    the assembled [dirichlet_identifiability_n] with no orthogonal-Jacobian
    hypothesis, with a witness in every dimension. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz FunctionalExtensionality.
From LejepaId Require Import Prelude Matrix.
Open Scope R_scope.

(** ** AM-GM for uniform weights. *)

Fixpoint fprod (n : nat) (f : nat -> R) : R :=
  match n with
  | O => 1
  | S m => fprod m f * f m
  end.

Lemma fprod_nonneg : forall n f, (forall i, (i < n)%nat -> 0 <= f i) -> 0 <= fprod n f.
Proof.
  induction n as [|n IH]; intros f H; simpl; [lra|].
  apply Rmult_le_pos; [apply IH; intros; apply H; lia | apply H; lia].
Qed.

Lemma fprod_pos : forall n f, (forall i, (i < n)%nat -> 0 < f i) -> 0 < fprod n f.
Proof.
  induction n as [|n IH]; intros f H; simpl; [lra|].
  apply Rmult_lt_0_compat; [apply IH; intros; apply H; lia | apply H; lia].
Qed.

Lemma fprod_ext : forall n f g, (forall i, (i < n)%nat -> f i = g i) -> fprod n f = fprod n g.
Proof.
  induction n as [|n IH]; intros f g H; simpl; [reflexivity|].
  rewrite (IH f g) by (intros; apply H; lia). rewrite (H n) by lia. reflexivity.
Qed.

Lemma fprod_le : forall n f g, (forall i, (i < n)%nat -> 0 <= f i <= g i) -> fprod n f <= fprod n g.
Proof.
  induction n as [|n IH]; intros f g H; simpl; [lra|].
  pose proof (IH f g (fun i Hi => H i ltac:(lia))). pose proof (H n ltac:(lia)).
  pose proof (fprod_nonneg n f (fun i Hi => proj1 (H i ltac:(lia)))). nra.
Qed.

(** Equality in a termwise bound of products with positive upper terms
    forces termwise equality. *)
Lemma fprod_le_eq :
  forall n f g, (forall i, (i < n)%nat -> 0 <= f i <= g i) -> (forall i, (i < n)%nat -> 0 < g i) ->
  fprod n f = fprod n g -> forall i, (i < n)%nat -> f i = g i.
Proof.
  induction n as [|n IH]; intros f g H Hg Heq i Hi; [lia|]. simpl in Heq.
  pose proof (fprod_le n f g (fun j Hj => H j ltac:(lia))) as Hle.
  pose proof (fprod_pos n g (fun j Hj => Hg j ltac:(lia))) as Hpg.
  pose proof (fprod_nonneg n f (fun j Hj => proj1 (H j ltac:(lia)))) as Hpf.
  pose proof (H n ltac:(lia)) as Hn. pose proof (Hg n ltac:(lia)) as Hgn.
  assert (Hfn : f n = g n) by nra.
  assert (Hp : fprod n f = fprod n g).
  { rewrite Hfn in Heq. apply (Rmult_eq_reg_r (g n)); [exact Heq | lra]. }
  destruct (Nat.eq_dec i n) as [->|Hne]; [exact Hfn|].
  apply (IH f g); [intros; apply H; lia | intros; apply Hg; lia | exact Hp | lia].
Qed.

Lemma fprod_exp : forall n f, fprod n (fun i => exp (f i)) = exp (fsum n f).
Proof.
  induction n as [|n IH]; intros f; simpl; [rewrite exp_0; reflexivity|].
  rewrite IH, exp_plus. reflexivity.
Qed.

Lemma fprod_scal : forall n c f, fprod n (fun i => c * f i) = c ^ n * fprod n f.
Proof. induction n as [|n IH]; intros c f; simpl; [ring|]. rewrite IH. ring. Qed.

(** [x <= exp (x - 1)], strictly unless [x = 1]. *)
Lemma le_exp_pred : forall x, x <= exp (x - 1).
Proof. intros x. pose proof (exp_ineq1_le (x - 1)). lra. Qed.

Lemma eq_exp_pred : forall x, x = exp (x - 1) -> x = 1.
Proof.
  intros x H. destruct (Req_dec (x - 1) 0) as [H0|H0]; [lra|].
  pose proof (exp_ineq1 (x - 1) H0). lra.
Qed.

Definition fmean (n : nat) (a : nat -> R) : R := fsum n a / INR n.

(** AM-GM (uniform weights): [prod a_i <= (mean a)^n], for [a_i >= 0]. *)
Theorem am_gm :
  forall n a, (0 < n)%nat -> (forall i, (i < n)%nat -> 0 <= a i) -> fprod n a <= fmean n a ^ n.
Proof.
  intros n a Hn Ha. set (A := fmean n a).
  assert (Hn' : 0 < INR n) by (apply lt_0_INR; exact Hn).
  assert (HA : 0 <= A) by (unfold A, fmean; apply Rmult_le_pos; [apply fsum_nonneg; exact Ha |
                                                              left; apply Rinv_0_lt_compat, Hn']).
  destruct (Req_dec A 0) as [HA0|HA0].
  - (* the mean vanishes, so every term does *)
    assert (Hz : forall i, (i < n)%nat -> a i = 0).
    { intros i Hi. symmetry. apply (fsum_le_eq n (fun _ => 0) a); [exact Ha | | exact Hi].
      rewrite fsum_const. replace (fsum n a) with (fsum n a / INR n * INR n) by (field; lra).
      unfold A, fmean in HA0. rewrite HA0. ring. }
    rewrite (fprod_ext n a (fun _ => 0 * 0)) by (intros; rewrite Hz by assumption; ring).
    rewrite fprod_scal. destruct n; [lia|]. rewrite HA0. simpl. lra.
  - assert (HApos : 0 < A) by lra.
    assert (Hr : fprod n (fun i => a i / A) <= 1).
    { apply Rle_trans with (fprod n (fun i => exp (a i / A - 1))).
      - apply fprod_le. intros i Hi. split; [apply Rmult_le_pos; [apply Ha, Hi | left; apply Rinv_0_lt_compat, HApos]|].
        apply le_exp_pred.
      - rewrite fprod_exp, fsum_minus, fsum_const.
        rewrite (fsum_ext n _ (fun i => / A * a i)) by (intros; unfold Rdiv; ring).
        rewrite fsum_scal. unfold A, fmean.
        replace (/ (fsum n a / INR n) * fsum n a - INR n * 1) with 0.
        + rewrite exp_0. lra.
        + field. split; [lra|]. unfold A, fmean in HA0. intros Hs. apply HA0. rewrite Hs. unfold Rdiv. ring. }
    rewrite (fprod_ext n (fun i => a i / A) (fun i => / A * a i)) in Hr by (intros; unfold Rdiv; ring).
    rewrite fprod_scal, pow_inv in Hr.
    assert (0 < A ^ n) by (apply pow_lt, HApos).
    apply (Rmult_le_reg_l (/ A ^ n)); [apply Rinv_0_lt_compat; assumption|].
    rewrite Rinv_l by lra. exact Hr.
Qed.

(** Equality case: [prod a_i = (mean a)^n] forces all [a_i] equal to the mean. *)
Theorem am_gm_equality :
  forall n a, (0 < n)%nat -> (forall i, (i < n)%nat -> 0 <= a i) -> 0 < fmean n a ->
  fprod n a = fmean n a ^ n -> forall i, (i < n)%nat -> a i = fmean n a.
Proof.
  intros n a Hn Ha HA Heq. set (A := fmean n a) in *.
  assert (Hn' : 0 < INR n) by (apply lt_0_INR; exact Hn).
  assert (Hsum : fsum n a = A * INR n) by (unfold A, fmean; field; lra).
  (* termwise: a_i / A <= exp (a_i / A - 1), with equal products *)
  assert (Hprod : fprod n (fun i => a i / A) = fprod n (fun i => exp (a i / A - 1))).
  { rewrite fprod_exp, fsum_minus, fsum_const.
    rewrite (fsum_ext n _ (fun i => / A * a i)) by (intros; unfold Rdiv; ring).
    rewrite fsum_scal, Hsum.
    replace (/ A * (A * INR n) - INR n * 1) with 0 by (field; lra). rewrite exp_0.
    rewrite (fprod_ext n (fun i => a i / A) (fun i => / A * a i)) by (intros; unfold Rdiv; ring).
    rewrite fprod_scal, Heq, pow_inv. apply Rinv_l.
    apply pow_nonzero. lra. }
  intros i Hi.
  pose proof (fprod_le_eq n (fun i => a i / A) (fun i => exp (a i / A - 1))) as He.
  assert (Hq : a i / A = exp (a i / A - 1)).
  { apply He; [| intros; apply exp_pos | exact Hprod | exact Hi].
    intros j Hj. split; [apply Rmult_le_pos; [apply Ha, Hj | left; apply Rinv_0_lt_compat, HA]|].
    apply le_exp_pred. }
  apply eq_exp_pred in Hq. apply (Rmult_eq_reg_r (/ A)); [|apply Rinv_neq_0_compat; lra].
  rewrite Rinv_r by lra. exact Hq.
Qed.

(** ** Jensen's inequality for [exp] and the Dirichlet-energy bound.

    Stated for any expectation with integrability side conditions: a class
    [I] of integrable random variables over a sample space [T] containing the
    constants and closed under linear combinations, and a functional [E] on it
    that is normalized, linear and monotone.  The Gaussian expectation is one
    ([I] the functions integrable against the Gaussian density, [E] the
    integral); so is any finite average.  Since the expectation is a
    hypothesis, Jensen is proved rather than assumed. *)
Section Expectation.
  Variable T : Type.

  Definition is_expectation (I : (T -> R) -> Prop) (E : (T -> R) -> R) : Prop :=
    (forall c, I (fun _ => c) /\ E (fun _ => c) = c) /\
    (forall a b f g, I f -> I g ->
       I (fun t => a * f t + b * g t) /\ E (fun t => a * f t + b * g t) = a * E f + b * E g) /\
    (forall f g, I f -> I g -> (forall t, f t <= g t) -> E f <= E g).

  Lemma expectation_scal :
    forall I E, is_expectation I E -> forall a f, I f -> I (fun t => a * f t) /\ E (fun t => a * f t) = a * E f.
  Proof.
    intros I E [_ [Hlin _]] a f Hf.
    replace (fun t => a * f t) with (fun t => a * f t + 0 * f t)
      by (apply functional_extensionality; intros; ring).
    destruct (Hlin a 0 f f Hf Hf) as [HI HE]. split; [exact HI|]. rewrite HE. ring.
  Qed.

  (** Jensen: [exp (E X) <= E (exp X)] for integrable [X] and [exp X], from the
      tangent line [exp x >= exp m (1 + (x - m))] at [m = E X]. *)
  Theorem jensen_exp :
    forall I E, is_expectation I E -> forall X, I X -> I (fun t => exp (X t)) ->
    exp (E X) <= E (fun t => exp (X t)).
  Proof.
    intros I E HE X HX HeX. pose proof HE as [Hc [Hlin Hmono]]. set (m := E X).
    assert (Htan : forall t, exp m * (1 - m) * 1 + exp m * X t <= exp (X t)).
    { intros t. replace (X t) with (m + (X t - m)) at 2 by ring. rewrite exp_plus.
      pose proof (exp_ineq1_le (X t - m)). pose proof (exp_pos m). nra. }
    destruct (Hc 1) as [H1 E1].
    destruct (Hlin (exp m * (1 - m)) (exp m) (fun _ => 1) X H1 HX) as [Hl El].
    pose proof (Hmono _ _ Hl HeX Htan) as H.
    rewrite El, E1 in H. fold m in H. lra.
  Qed.

  (** Pointwise AM-GM in logarithmic form:
      [n exp (ln (prod_i a_i) / n) <= sum_i a_i] for [a_i > 0]. *)
  Lemma energy_pointwise : forall n (a : nat -> R), (0 < n)%nat -> (forall i, (i < n)%nat -> 0 < a i) ->
    INR n * exp (/ INR n * ln (fprod n a)) <= fsum n a.
  Proof.
    intros n a Hn Ha. assert (Hn' : 0 < INR n) by (apply lt_0_INR; exact Hn).
    set (Y := / INR n * ln (fprod n a)).
    pose proof (am_gm n a Hn (fun i Hi => Rlt_le _ _ (Ha i Hi))) as Hag.
    assert (Hp : 0 < fprod n a) by (apply fprod_pos; intros; apply Ha; assumption).
    assert (Hm : 0 < fmean n a).
    { unfold fmean. apply Rdiv_lt_0_compat; [|exact Hn'].
      destruct n as [|k]; [lia|]. simpl. pose proof (Ha k ltac:(lia)).
      pose proof (fsum_nonneg k a (fun i Hi => Rlt_le _ _ (Ha i ltac:(lia)))). lra. }
    assert (Hl : ln (fprod n a) <= INR n * ln (fmean n a)).
    { rewrite <- ln_pow by exact Hm. destruct (Rle_lt_or_eq_dec _ _ Hag) as [Hlt|Heq].
      - left. apply ln_increasing; assumption.
      - rewrite Heq. lra. }
    assert (HY : Y <= ln (fmean n a)).
    { unfold Y. apply (Rmult_le_reg_l (INR n)); [exact Hn'|].
      rewrite <- Rmult_assoc, Rinv_r by lra. lra. }
    assert (HeY : exp Y <= fmean n a).
    { rewrite <- (exp_ln (fmean n a)) by exact Hm.
      destruct HY as [Hlt|Heq]; [left; apply exp_increasing, Hlt | rewrite Heq; lra]. }
    replace (fsum n a) with (INR n * fmean n a) by (unfold fmean; field; lra).
    apply Rmult_le_compat_l; lra.
  Qed.

  (** The Dirichlet-energy bound.  For each sample [t], [a t i > 0] are the
      squared singular values of the Jacobian (eigenvalues of [J^T J]), so
      [sum_i a t i = |J|_F^2] and [prod_i a t i = det (J^T J)]; preserving the
      Gaussian makes [E log det (J^T J) = 0].  Then AM-GM pointwise and Jensen
      give [E |J|_F^2 >= n].  Side conditions: [log det (J^T J)], [|J|_F^2]
      and the geometric mean [det (J^T J)^(1/n)] of the squared singular
      values are integrable (the last is implied by the second for the
      Gaussian, as [0 <] geometric mean [<=] arithmetic mean). *)
  Theorem dirichlet_energy_bound :
    forall I E n (a : T -> nat -> R), is_expectation I E -> (0 < n)%nat ->
    (forall t i, (i < n)%nat -> 0 < a t i) ->
    I (fun t => ln (fprod n (a t))) -> I (fun t => fsum n (a t)) ->
    I (fun t => exp (/ INR n * ln (fprod n (a t)))) ->
    E (fun t => ln (fprod n (a t))) = 0 ->
    INR n <= E (fun t => fsum n (a t)).
  Proof.
    intros I E n a HE Hn Ha Ilog Isum Igm Hlog. pose proof HE as [Hc [Hlin Hmono]].
    assert (Hn' : 0 < INR n) by (apply lt_0_INR; exact Hn).
    set (Y := fun t => / INR n * ln (fprod n (a t))).
    assert (IY : I Y) by apply (expectation_scal I E HE (/ INR n) _ Ilog).
    assert (Hpt : forall t, INR n * exp (Y t) <= fsum n (a t))
      by (intros t; apply (energy_pointwise n (a t) Hn (Ha t))).
    destruct (expectation_scal I E HE (INR n) _ Igm) as [IsY EsY].
    pose proof (Hmono _ _ IsY Isum Hpt) as H. unfold Y in H. rewrite EsY in H.
    pose proof (jensen_exp I E HE Y IY Igm) as J.
    assert (HEY : E Y = 0).
    { unfold Y. rewrite (proj2 (expectation_scal I E HE (/ INR n) _ Ilog)), Hlog. ring. }
    rewrite HEY, exp_0 in J. unfold Y in J. nra.
  Qed.
  (** Equality case.  If moreover [E] is faithful on [I] (an integrable
      variable that is nonnegative with zero expectation vanishes at every
      sample: true for the Gaussian integral on continuous integrable
      functions), energy exactly [n] forces every squared singular value
      [a t i] to be 1 at every sample [t].  (The [a t i] are given numbers:
      that a matrix whose squared singular values are all 1 has [J^T J = I]
      would need the spectral theorem; [dirichlet_jacobian_equality] below
      reaches [J^T J = I] from [J] itself, through a Cholesky factor.) *)
  Theorem dirichlet_energy_equality :
    forall I E n (a : T -> nat -> R), is_expectation I E -> (0 < n)%nat ->
    (forall f, I f -> (forall t, 0 <= f t) -> E f = 0 -> forall t, f t = 0) ->
    (forall t i, (i < n)%nat -> 0 < a t i) ->
    I (fun t => ln (fprod n (a t))) -> I (fun t => fsum n (a t)) ->
    I (fun t => exp (/ INR n * ln (fprod n (a t)))) ->
    E (fun t => ln (fprod n (a t))) = 0 ->
    E (fun t => fsum n (a t)) = INR n ->
    forall t i, (i < n)%nat -> a t i = 1.
  Proof.
    intros I E n a HE Hn Hfaith Ha Ilog Isum Igm Hlog Hen t0 i0 Hi0. pose proof HE as [Hc [Hlin Hmono]].
    assert (Hn' : 0 < INR n) by (apply lt_0_INR; exact Hn).
    assert (IY : I (fun t => / INR n * ln (fprod n (a t)))) by apply (expectation_scal I E HE (/ INR n) _ Ilog).
    assert (HEY : E (fun t => / INR n * ln (fprod n (a t))) = 0).
    { rewrite (proj2 (expectation_scal I E HE (/ INR n) _ Ilog)), Hlog. ring. }
    (* E exp Y = 1: Jensen from below, the energy bound from above *)
    destruct (expectation_scal I E HE (INR n) _ Igm) as [IsY EsY].
    pose proof (Hmono _ _ IsY Isum (fun t => energy_pointwise n (a t) Hn (Ha t))) as H1.
    rewrite EsY, Hen in H1.
    pose proof (jensen_exp I E HE _ IY Igm) as J. rewrite HEY, exp_0 in J.
    assert (HEe : E (fun t => exp (/ INR n * ln (fprod n (a t)))) = 1) by nra.
    (* the AM-GM gap vanishes everywhere *)
    destruct (Hlin 1 (- INR n) _ _ Isum Igm) as [I1 E1].
    pose proof (Hfaith _ I1 (fun t => ltac:(pose proof (energy_pointwise n (a t) Hn (Ha t)); lra))
                  ltac:(rewrite E1, Hen, HEe; ring) t0) as Z1. cbv beta in Z1.
    (* the Jensen gap exp Y - 1 - Y vanishes everywhere, so Y = 0 *)
    destruct (Hc 1) as [Ic Ec].
    destruct (Hlin 1 1 _ _ Ic IY) as [Ig Eg].
    destruct (Hlin 1 (-1) _ _ Igm Ig) as [I2 E2].
    pose proof (Hfaith _ I2
                  (fun t => ltac:(pose proof (exp_ineq1_le (/ INR n * ln (fprod n (a t)))); lra))
                  ltac:(rewrite E2, Eg, Ec, HEY, HEe; ring) t0) as Z2. cbv beta in Z2.
    set (y := / INR n * ln (fprod n (a t0))) in *.
    assert (Hy : y = 0).
    { assert (Hx : 1 + y = exp ((1 + y) - 1)) by (replace ((1 + y) - 1) with y by ring; lra).
      apply eq_exp_pred in Hx. lra. }
    (* so prod a_i = 1 = mean^n and sum a_i = n: AM-GM equality *)
    assert (Hp : 0 < fprod n (a t0)) by (apply fprod_pos; intros; apply Ha; assumption).
    assert (Hprod : fprod n (a t0) = 1).
    { assert (Hl : ln (fprod n (a t0)) = 0).
      { unfold y in Hy. apply (Rmult_eq_reg_l (/ INR n)); [rewrite Hy; ring|].
        apply Rinv_neq_0_compat; lra. }
      rewrite <- (exp_ln _ Hp), Hl. apply exp_0. }
    assert (Hmean : fmean n (a t0) = 1).
    { rewrite Hy, exp_0 in Z1. unfold fmean. replace (fsum n (a t0)) with (INR n) by lra. field; lra. }
    rewrite <- Hmean. apply am_gm_equality; [exact Hn | intros; left; apply Ha; assumption | lra | | exact Hi0].
    rewrite Hprod, Hmean, pow1. reflexivity.
  Qed.
End Expectation.

(** ** Euclidean geometry of [R^n]. *)

Lemma nsq_sub : forall n a b, nsq n (vsub a b) = nsq n a - 2 * dot n a b + nsq n b.
Proof. intros. unfold nsq. rewrite dot_sub_l, !dot_sub_r, (dot_sym n b a). ring. Qed.

Lemma dot_two_le : forall n a b, 2 * dot n a b <= nsq n a + nsq n b.
Proof. intros n a b. pose proof (nsq_nonneg n (vsub a b)) as H. rewrite nsq_sub in H. lra. Qed.

(** Cauchy-Schwarz, from [2 <a, b> <= |a|^2 + |b|^2] by rescaling. *)
Theorem cauchy_schwarz : forall n a b, dot n a b <= vnorm n a * vnorm n b.
Proof.
  intros n a b. pose proof (vnorm_sq n a) as Ha. pose proof (vnorm_sq n b) as Hb.
  pose proof (vnorm_nonneg n a). pose proof (vnorm_nonneg n b).
  destruct (Req_dec (vnorm n a) 0) as [Ha0|Ha0].
  { rewrite (dot_veq_zero n a b); [nra|]. apply nsq_zero. rewrite <- Ha, Ha0. ring. }
  destruct (Req_dec (vnorm n b) 0) as [Hb0|Hb0].
  { rewrite dot_sym, (dot_veq_zero n b a); [nra|]. apply nsq_zero. rewrite <- Hb, Hb0. ring. }
  set (α := vnorm n a) in *. set (β := vnorm n b) in *.
  pose proof (dot_two_le n (vscal (/ α) a) (vscal (/ β) b)) as Hdt.
  unfold nsq in Hdt. rewrite !dot_scal_l, !dot_scal_r in Hdt. fold (nsq n a) (nsq n b) in Hdt.
  rewrite <- Ha, <- Hb in Hdt.
  replace (/ α * (/ α * α ^ 2)) with 1 in Hdt by (field; exact Ha0).
  replace (/ β * (/ β * β ^ 2)) with 1 in Hdt by (field; exact Hb0).
  assert (Hab : 0 < α * β) by (apply Rmult_lt_0_compat; lra).
  apply (Rmult_le_reg_l (/ (α * β))); [apply Rinv_0_lt_compat, Hab|].
  rewrite Rinv_l by lra. rewrite Rinv_mult. lra.
Qed.

Lemma mapply_sub : forall n A x y i, mapply n A (vsub x y) i = vsub (mapply n A x) (mapply n A y) i.
Proof. intros. unfold mapply, vsub. rewrite <- fsum_minus. apply fsum_ext. intros; ring. Qed.

(** A norm-preserving linear map is an isometry. *)
Theorem norm_preserving_linear_isometry :
  forall n A, (forall x, nsq n (mapply n A x) = nsq n x) ->
  forall x y, vnorm n (vsub (mapply n A y) (mapply n A x)) = vnorm n (vsub y x).
Proof.
  intros n A HA x y. apply vnorm_eq_iff. rewrite <- (HA (vsub y x)).
  apply nsq_veq. intros i _. rewrite mapply_sub. reflexivity.
Qed.

Lemma is_derive_fsum :
  forall n (F : nat -> R -> R) dF t, (forall i, (i < n)%nat -> is_derive (F i) t (dF i)) ->
  is_derive (fun s => fsum n (fun i => F i s)) t (fsum n dF).
Proof.
  induction n as [|n IH]; intros F dF t H; simpl.
  - apply (is_derive_const 0 t).
  - apply (is_derive_plus (fun s => fsum n (fun i => F i s)) (F n));
      [apply IH; intros; apply H; lia | apply H; lia].
Qed.

Section Lipschitz.
  Variable n : nat.
  (** A map [h : R^n -> R^n] with Jacobian field [J]: along every line, each
      coordinate of [h] is differentiable with derivative [(J v)_i]
      (Gateaux derivatives, implied by Frechet differentiability). *)
  Definition has_jacobian (h : vec -> vec) (J : vec -> mat) : Prop :=
    forall x v i t, is_derive (fun s => h (vadd x (vscal s v)) i) t
                              (mapply n (J (vadd x (vscal t v))) v i).

  (** The Jacobian is orthogonal (norm preserving) at every point. *)
  Definition orthogonal_jacobian (J : vec -> mat) : Prop :=
    forall x v, nsq n (mapply n (J x) v) = nsq n v.

  Definition lipschitz1 (h : vec -> vec) : Prop :=
    forall x y, vnorm n (vsub (h y) (h x)) <= vnorm n (vsub y x).

  Definition isometry (h : vec -> vec) : Prop :=
    forall x y, vnorm n (vsub (h y) (h x)) = vnorm n (vsub y x).

  (** An orthogonal Jacobian implies 1-Lipschitz: project the increment on
      its own direction and apply the mean value theorem along the segment. *)
  Theorem orthogonal_jacobian_lipschitz :
    forall h J, has_jacobian h J -> orthogonal_jacobian J -> lipschitz1 h.
  Proof.
    intros h J Hder Horth x y.
    set (v := vsub y x). set (w := vsub (h y) (h x)).
    set (g := fun t => fsum n (fun i => w i * h (vadd x (vscal t v)) i)).
    set (g' := fun t => dot n w (mapply n (J (vadd x (vscal t v))) v)).
    assert (Hg : forall t, is_derive g t (g' t)).
    { intros t. unfold g, g', dot. apply is_derive_fsum. intros i _.
      apply is_derive_scal, Hder. }
    destruct (MVT_cor2 g g' 0 1 Rlt_0_1 (fun c _ => proj1 (is_derive_Reals _ _ _) (Hg c)))
      as [c [Hmvt _]].
    assert (E1 : vadd x (vscal 1 v) = y).
    { apply functional_extensionality. intros i. unfold vadd, vscal, v, vsub. ring. }
    assert (E0 : vadd x (vscal 0 v) = x).
    { apply functional_extensionality. intros i. unfold vadd, vscal. ring. }
    unfold g in Hmvt. rewrite E1, E0 in Hmvt.
    assert (Hw : fsum n (fun i => w i * h y i) - fsum n (fun i => w i * h x i) = nsq n w).
    { rewrite <- fsum_minus. unfold nsq, dot. apply fsum_ext. intros i _. unfold w, vsub. ring. }
    rewrite Hw in Hmvt.
    pose proof (cauchy_schwarz n w (mapply n (J (vadd x (vscal c v))) v)) as Hcs.
    rewrite (proj2 (vnorm_eq_iff n _ v) (Horth _ v)) in Hcs.
    unfold g' in Hmvt. rewrite Rminus_0_r, Rmult_1_r in Hmvt.
    rewrite <- vnorm_sq in Hmvt. fold v w.
    pose proof (vnorm_nonneg n w). pose proof (vnorm_nonneg n v).
    destruct (Req_dec (vnorm n w) 0) as [Hw0|Hw0]; [lra|]. nra.
  Qed.

  (** Bi-Lipschitz with constant 1 implies a global isometry. *)
  Theorem bilipschitz_isometry :
    forall h g, (forall x, veq n (g (h x)) x) -> lipschitz1 h -> lipschitz1 g -> isometry h.
  Proof.
    intros h g Hinv Lh Lg x y. apply Rle_antisym; [apply Lh|].
    replace (vnorm n (vsub y x)) with (vnorm n (vsub (g (h y)) (g (h x)))); [apply Lg|].
    apply vnorm_eq_iff, nsq_veq. intros i Hi. unfold vsub. rewrite !Hinv by exact Hi. reflexivity.
  Qed.
End Lipschitz.

Definition unit_vec (k : nat) : vec := fun j => kron k j.

Lemma mapply_unit : forall n A k j, (k < n)%nat -> mapply n A (unit_vec k) j = A j k.
Proof.
  intros n A k j Hk. unfold mapply, unit_vec.
  rewrite (fsum_ext n _ (fun l => kron k l * A j l)) by (intros; ring). apply fsum_kron, Hk.
Qed.

Lemma dot_unit : forall n x j, (j < n)%nat -> dot n x (unit_vec j) = x j.
Proof.
  intros n x j Hj. unfold dot, unit_vec.
  rewrite (fsum_ext n _ (fun i => kron j i * x i)) by (intros; ring). apply fsum_kron, Hj.
Qed.

(** [<y, A x> = sum_j x_j <y, A e_j>]. *)
Lemma dot_mapply : forall n y A x,
  dot n y (mapply n A x) = fsum n (fun j => x j * dot n y (fun i => A i j)).
Proof.
  intros n y A x. unfold dot, mapply.
  rewrite (fsum_ext n _ (fun i => fsum n (fun j => y i * A i j * x j)))
    by (intros i _; rewrite <- fsum_scal; apply fsum_ext; intros; ring).
  rewrite fsum_swap. apply fsum_ext. intros j _. rewrite <- fsum_scal. apply fsum_ext. intros; ring.
Qed.

(** Mazur-Ulam, Euclidean case (an axiom of the published development, proved
    here by polarization): an isometry of [R^n] fixing the origin preserves
    inner products, hence is the linear map whose columns are the images of
    the unit vectors. *)
Theorem isometry_linear :
  forall n (f : vec -> vec), isometry n f -> veq n (f (fun _ => 0)) (fun _ => 0) ->
  exists A : mat, forall x, veq n (f x) (mapply n A x).
Proof.
  intros n f Hiso H0.
  assert (Hn : forall x, nsq n (f x) = nsq n x).
  { intros x. pose proof (Hiso (fun _ => 0) x) as Hx. apply vnorm_eq_iff in Hx.
    rewrite (nsq_veq n (vsub (f x) (f (fun _ => 0))) (f x)) in Hx
      by (intros i Hi; unfold vsub; rewrite H0 by exact Hi; ring).
    rewrite Hx. apply nsq_veq. intros i _. unfold vsub. ring. }
  assert (Hd : forall x y, dot n (f x) (f y) = dot n x y).
  { intros x y. pose proof (Hiso x y) as Hxy. apply vnorm_eq_iff in Hxy.
    rewrite !nsq_sub, !Hn in Hxy. rewrite (dot_sym n (f x)), (dot_sym n x). lra. }
  set (A := fun i j => f (unit_vec j) i). exists A. intros x.
  set (y := mapply n A x).
  assert (Hcol : forall z j, (j < n)%nat -> dot n (f z) (fun i => A i j) = z j).
  { intros z j Hj. unfold A. change (fun i => f (unit_vec j) i) with (f (unit_vec j)).
    rewrite Hd. apply dot_unit, Hj. }
  assert (Hfy : dot n (f x) y = nsq n x).
  { unfold y. rewrite dot_mapply. unfold nsq, dot at 2. apply fsum_ext. intros j Hj.
    rewrite Hcol by exact Hj. reflexivity. }
  assert (Hyy : nsq n y = nsq n x).
  { unfold nsq at 1. unfold y at 2. rewrite dot_mapply. unfold nsq, dot at 2. apply fsum_ext.
    intros j Hj. f_equal. rewrite dot_sym. unfold y. rewrite dot_mapply.
    rewrite (fsum_ext n _ (fun k => kron j k * x k)); [apply fsum_kron, Hj|].
    intros k Hk. unfold A. change (fun i => f (unit_vec j) i) with (f (unit_vec j)).
    change (fun i => f (unit_vec k) i) with (f (unit_vec k)).
    rewrite Hd, dot_unit by exact Hk. unfold unit_vec. ring. }
  assert (Hz : nsq n (vsub (f x) y) = 0) by (rewrite nsq_sub, Hn, Hfy, Hyy; ring).
  intros i Hi. pose proof (nsq_zero n _ Hz i Hi) as E. unfold vsub in E. lra.
Qed.

(** A norm-preserving linear map has orthonormal columns ([Q^T Q = I]). *)
Lemma norm_preserving_columns :
  forall n A, (forall x, nsq n (mapply n A x) = nsq n x) ->
  forall i k, (i < n)%nat -> (k < n)%nat -> fsum n (fun j => A j i * A j k) = kron i k.
Proof.
  intros n A HA i k Hi Hk.
  assert (Hdot : forall x y, dot n (mapply n A x) (mapply n A y) = dot n x y).
  { intros x y. pose proof (HA (vsub x y)) as H.
    rewrite (nsq_veq n (mapply n A (vsub x y)) (vsub (mapply n A x) (mapply n A y))) in H
      by (intros j _; apply mapply_sub).
    rewrite !nsq_sub, !HA in H. lra. }
  pose proof (Hdot (unit_vec i) (unit_vec k)) as H. unfold dot in H.
  rewrite (fsum_ext n (fun j => mapply n A (unit_vec i) j * mapply n A (unit_vec k) j)
             (fun j => A j i * A j k)) in H by (intros; rewrite !mapply_unit by assumption; reflexivity).
  rewrite H. unfold unit_vec. rewrite (fsum_kron n i (fun j => kron k j)) by exact Hi. apply kron_sym.
Qed.

(** Dirichlet route, assembled: if [h] and its inverse [g] both have
    orthogonal Jacobians and [h] fixes the origin (the mean of a centered
    encoder), then [h = Q z] with [Q^T Q = I]. *)
Theorem dirichlet_identifiability :
  forall n h J g Jg,
  has_jacobian n h J -> orthogonal_jacobian n J ->
  has_jacobian n g Jg -> orthogonal_jacobian n Jg ->
  (forall x, veq n (g (h x)) x) ->
  veq n (h (fun _ => 0)) (fun _ => 0) ->
  exists Q : mat,
    (forall i k, (i < n)%nat -> (k < n)%nat -> fsum n (fun j => Q j i * Q j k) = kron i k) /\
    forall z, veq n (h z) (mapply n Q z).
Proof.
  intros n h J g Jg Hh HJ Hg HJg Hinv H0.
  pose proof (bilipschitz_isometry n h g Hinv (orthogonal_jacobian_lipschitz n h J Hh HJ)
                (orthogonal_jacobian_lipschitz n g Jg Hg HJg)) as Hiso.
  destruct (isometry_linear n h Hiso H0) as [A HA].
  exists A. split; [|exact HA].
  apply norm_preserving_columns. intros x.
  pose proof (Hiso (fun _ => 0) x) as Hx. apply vnorm_eq_iff in Hx.
  rewrite <- (nsq_veq n _ _ (HA x)).
  rewrite (nsq_veq n (vsub (h x) (h (fun _ => 0))) (h x)) in Hx
    by (intros i Hi; unfold vsub; rewrite H0 by exact Hi; ring).
  rewrite Hx. apply nsq_veq. intros i _. unfold vsub. ring.
Qed.

(** ** The energies from the Jacobian itself ([J^T J]), dimension 2.

    Above, the energy bound is stated for positive reals [a t i] standing for
    the squared singular values.  Here the energies are defined from the
    Jacobian matrix: the Dirichlet energy is [tr (J^T J) = |J|_F^2] and the
    volume term is [ln det (J^T J)].  The trace-determinant AM-GM
    [tr A / 2 >= sqrt (det A)] for a symmetric positive semidefinite 2 x 2
    matrix, with equality iff [A = c I], replaces AM-GM on singular values, so
    the equality case gives [J^T J = I] with no spectral theorem, and the
    assembled statement needs no orthogonal-Jacobian hypothesis.  The
    general [n] is the last section, with the [n x n] determinant of the
    section before it. *)

(** [J^T J], the trace, the 2 x 2 determinant, positive semidefinite. *)
Definition gram (n : nat) (J : mat) : mat := fun i k => fsum n (fun j => J j i * J j k).
Definition mtrace (n : nat) (A : mat) : R := fsum n (fun i => A i i).
Definition det2 (A : mat) : R := A 0%nat 0%nat * A 1%nat 1%nat - A 0%nat 1%nat * A 1%nat 0%nat.
Definition psd (n : nat) (A : mat) : Prop :=
  (forall i k, (i < n)%nat -> (k < n)%nat -> A i k = A k i) /\ forall v, 0 <= dot n v (mapply n A v).

Lemma quad2 : forall A v, dot 2 v (mapply 2 A v) =
  A 0%nat 0%nat * v 0%nat ^ 2 + (A 0%nat 1%nat + A 1%nat 0%nat) * v 0%nat * v 1%nat + A 1%nat 1%nat * v 1%nat ^ 2.
Proof. intros A v. unfold dot, mapply. simpl. ring. Qed.

Definition vec2 (a b : R) : vec := fun i => match i with O => a | _ => b end.

(** A symmetric positive semidefinite 2 x 2 matrix has [det A >= 0] and
    [sqrt (det A) <= tr A / 2]. *)
Theorem trace_det_am_gm2 :
  forall A, psd 2 A -> 0 <= det2 A /\ sqrt (det2 A) <= mtrace 2 A / 2.
Proof.
  intros A [Hs Hq].
  assert (Hb : A 1%nat 0%nat = A 0%nat 1%nat) by (apply Hs; lia).
  set (a := A 0%nat 0%nat) in *. set (b := A 0%nat 1%nat) in *. set (d := A 1%nat 1%nat) in *.
  assert (Hv : forall s t, 0 <= a * s ^ 2 + 2 * b * s * t + d * t ^ 2).
  { intros s t. pose proof (Hq (vec2 s t)) as H. rewrite quad2 in H. simpl in H.
    fold a b d in H. rewrite Hb in H. fold b in H. nra. }
  assert (Ha : 0 <= a) by (pose proof (Hv 1 0); nra).
  assert (Hd : 0 <= d) by (pose proof (Hv 0 1); nra).
  assert (Hdet : b ^ 2 <= d * a).
  { apply discriminant; [exact Ha|]. intros t. pose proof (Hv t 1). nra. }
  assert (Hdet' : det2 A = a * d - b ^ 2) by (unfold det2; fold a b d; rewrite Hb; fold b; ring).
  assert (Htr : mtrace 2 A = a + d) by (unfold mtrace; simpl; fold a d; ring).
  rewrite Hdet', Htr. split; [nra|].
  apply sqrt_le_of_sq; [lra|].
  replace (((a + d) / 2) ^ 2) with (a * d + ((a - d) / 2) ^ 2) by field.
  pose proof (pow2_ge_0 ((a - d) / 2)). pose proof (pow2_ge_0 b). lra.
Qed.

(** Equality: [sqrt (det A) = tr A / 2] forces [A = (tr A / 2) I]. *)
Theorem trace_det_equality2 :
  forall A, psd 2 A -> sqrt (det2 A) = mtrace 2 A / 2 ->
  forall i k, (i < 2)%nat -> (k < 2)%nat -> A i k = mtrace 2 A / 2 * kron i k.
Proof.
  intros A HA Heq. destruct (trace_det_am_gm2 A HA) as [H0 _]. destruct HA as [Hs _].
  assert (Hb : A 1%nat 0%nat = A 0%nat 1%nat) by (apply Hs; lia).
  assert (Htr : mtrace 2 A = A 0%nat 0%nat + A 1%nat 1%nat) by (unfold mtrace; simpl; ring).
  assert (Hsq : det2 A = (mtrace 2 A / 2) ^ 2).
  { rewrite <- Heq. rewrite pow2_sqrt by exact H0. reflexivity. }
  unfold det2 in Hsq. rewrite Htr, Hb in Hsq.
  set (a := A 0%nat 0%nat) in *. set (b := A 0%nat 1%nat) in *. set (d := A 1%nat 1%nat) in *.
  replace (((a + d) / 2) ^ 2) with (a * d + ((a - d) / 2) ^ 2) in Hsq by field.
  pose proof (pow2_ge_0 ((a - d) / 2)) as P1. pose proof (pow2_ge_0 b) as P2.
  assert (E1 : b = 0) by (apply Rsqr_0_uniq; unfold Rsqr; replace (b * b) with (b ^ 2) by ring; lra).
  assert (E2 : a = d).
  { assert (Z : (a - d) / 2 = 0).
    { apply Rsqr_0_uniq. unfold Rsqr. replace ((a - d) / 2 * ((a - d) / 2)) with (((a - d) / 2) ^ 2) by ring. lra. }
    lra. }
  intros i k Hi Hk. rewrite Htr. unfold kron.
  destruct i as [|[|i]]; destruct k as [|[|k]]; try lia; simpl; fold a b d; try lra.

Qed.

(** [J^T J] is symmetric positive semidefinite. *)
Lemma gram_psd2 : forall J, psd 2 (gram 2 J).
Proof.
  intros J. split.
  - intros i k _ _. unfold gram. apply fsum_ext. intros; ring.
  - intros v. rewrite quad2. unfold gram. simpl.
    match goal with |- 0 <= ?e =>
      replace e with ((J 0%nat 0%nat * v 0%nat + J 0%nat 1%nat * v 1%nat) ^ 2 +
                      (J 1%nat 0%nat * v 0%nat + J 1%nat 1%nat * v 1%nat) ^ 2) by ring end.
    pose proof (pow2_ge_0 (J 0%nat 0%nat * v 0%nat + J 0%nat 1%nat * v 1%nat)).
    pose proof (pow2_ge_0 (J 1%nat 0%nat * v 0%nat + J 1%nat 1%nat * v 1%nat)). lra.
Qed.

Lemma gram_identity_norm2 : forall J,
  (forall i k, (i < 2)%nat -> (k < 2)%nat -> gram 2 J i k = kron i k) ->
  forall v, nsq 2 (mapply 2 J v) = nsq 2 v.
Proof.
  intros J H v.
  pose proof (H 0%nat 0%nat ltac:(lia) ltac:(lia)) as H00.
  pose proof (H 0%nat 1%nat ltac:(lia) ltac:(lia)) as H01.
  pose proof (H 1%nat 1%nat ltac:(lia) ltac:(lia)) as H11.
  unfold gram, kron in *. simpl in *.
  unfold nsq, dot, mapply. simpl.
  set (v0 := v 0%nat) in *. set (v1 := v 1%nat).
  replace ((0 + (0 + J 0%nat 0%nat * v0 + J 0%nat 1%nat * v1) * (0 + J 0%nat 0%nat * v0 + J 0%nat 1%nat * v1)) +
           (0 + J 1%nat 0%nat * v0 + J 1%nat 1%nat * v1) * (0 + J 1%nat 0%nat * v0 + J 1%nat 1%nat * v1))
    with ((0 + J 0%nat 0%nat * J 0%nat 0%nat + J 1%nat 0%nat * J 1%nat 0%nat) * v0 ^ 2
          + 2 * (0 + J 0%nat 0%nat * J 0%nat 1%nat + J 1%nat 0%nat * J 1%nat 1%nat) * v0 * v1
          + (0 + J 0%nat 1%nat * J 0%nat 1%nat + J 1%nat 1%nat * J 1%nat 1%nat) * v1 ^ 2) by ring.
  rewrite H00, H01, H11. ring.
Qed.

(** Jensen and monotonicity: [c exp Y <= F] at every sample with [E Y = 0]
    gives [c <= E F]; if moreover [E] is faithful and [E F = c], then
    [Y = 0] and [F = c] at every sample. *)
Lemma energy_from_pointwise :
  forall T I E (Y F : T -> R) c, is_expectation T I E -> 0 <= c ->
  I Y -> I (fun t => exp (Y t)) -> I F -> E Y = 0 ->
  (forall t, c * exp (Y t) <= F t) -> c <= E F.
Proof.
  intros T I E Y F c HE Hc IY IeY IF HY Hpt. pose proof HE as [_ [_ Hmono]].
  destruct (expectation_scal T I E HE c _ IeY) as [IcY EcY].
  pose proof (Hmono _ _ IcY IF Hpt) as H. rewrite EcY in H.
  pose proof (jensen_exp T I E HE Y IY IeY) as J. rewrite HY, exp_0 in J. nra.
Qed.

Lemma energy_equality_pointwise :
  forall T I E (Y F : T -> R) c, is_expectation T I E ->
  (forall f, I f -> (forall t, 0 <= f t) -> E f = 0 -> forall t, f t = 0) -> 0 < c ->
  I Y -> I (fun t => exp (Y t)) -> I F -> E Y = 0 ->
  (forall t, c * exp (Y t) <= F t) -> E F = c -> forall t, Y t = 0 /\ F t = c.
Proof.
  intros T I E Y F c HE Hfaith Hc IY IeY IF HY Hpt HF t0. pose proof HE as [Hc1 [Hlin Hmono]].
  destruct (expectation_scal T I E HE c _ IeY) as [IcY EcY].
  pose proof (Hmono _ _ IcY IF Hpt) as H1. rewrite EcY, HF in H1.
  pose proof (jensen_exp T I E HE Y IY IeY) as J. rewrite HY, exp_0 in J.
  assert (HEe : E (fun t => exp (Y t)) = 1).
  { apply Rle_antisym; [|exact J]. apply (Rmult_le_reg_l c); [exact Hc|]. lra. }
  (* the AM-GM gap F - c exp Y is nonnegative with zero expectation *)
  destruct (Hlin 1 (- c) _ _ IF IeY) as [I1 E1].
  pose proof (Hfaith _ I1 (fun t => ltac:(pose proof (Hpt t); lra))
                ltac:(rewrite E1, HF, HEe; ring) t0) as Z1. cbv beta in Z1.
  (* the Jensen gap exp Y - 1 - Y likewise *)
  destruct (Hc1 1) as [Ic Ec].
  destruct (Hlin 1 1 _ _ Ic IY) as [Ig Eg].
  destruct (Hlin 1 (-1) _ _ IeY Ig) as [I2 E2].
  pose proof (Hfaith _ I2 (fun t => ltac:(pose proof (exp_ineq1_le (Y t)); lra))
                ltac:(rewrite E2, Eg, Ec, HY, HEe; ring) t0) as Z2. cbv beta in Z2.
  assert (Hy : Y t0 = 0).
  { assert (Hx : 1 + Y t0 = exp ((1 + Y t0) - 1)) by (replace ((1 + Y t0) - 1) with (Y t0) by ring; lra).
    apply eq_exp_pred in Hx. lra. }
  split; [exact Hy|]. rewrite Hy, exp_0 in Z1. lra.
Qed.

(** The energies of a 2 x 2 Jacobian [J]: the Dirichlet energy
    [tr (J^T J) = |J|_F^2] and the log volume [ln det (J^T J)]. *)
Definition dirichlet_energy2 (J : mat) : R := mtrace 2 (gram 2 J).
Definition log_volume2 (J : mat) : R := ln (det2 (gram 2 J)).

Lemma exp_half_ln : forall x, 0 < x -> exp (/ 2 * ln x) = sqrt x.
Proof. intros x Hx. rewrite <- Rpower_sqrt by exact Hx. reflexivity. Qed.

Lemma energy_pointwise2 : forall J, 0 < det2 (gram 2 J) ->
  2 * exp (/ 2 * log_volume2 J) <= dirichlet_energy2 J.
Proof.
  intros J Hd. unfold log_volume2, dirichlet_energy2. rewrite exp_half_ln by exact Hd.
  destruct (trace_det_am_gm2 _ (gram_psd2 J)) as [_ H]. lra.
Qed.

(** The Dirichlet-energy bound from the Jacobian, [n = 2]: if [det (J^T J) > 0]
    at every sample and [E ln det (J^T J) = 0] (the Gaussian is preserved),
    then [E tr (J^T J) >= 2].  Side conditions: [ln det (J^T J)],
    [tr (J^T J)] and [sqrt (det (J^T J))] are integrable. *)
Theorem dirichlet_jacobian_bound2 :
  forall T I E (J : T -> mat), is_expectation T I E ->
  (forall t, 0 < det2 (gram 2 (J t))) ->
  I (fun t => log_volume2 (J t)) -> I (fun t => dirichlet_energy2 (J t)) ->
  I (fun t => sqrt (det2 (gram 2 (J t)))) ->
  E (fun t => log_volume2 (J t)) = 0 ->
  2 <= E (fun t => dirichlet_energy2 (J t)).
Proof.
  intros T I E J HE Hd Ilog Ien Isq Hlog.
  set (Y := fun t => / 2 * log_volume2 (J t)).
  destruct (expectation_scal T I E HE (/ 2) _ Ilog) as [IY EY].
  assert (HeY : (fun t => exp (Y t)) = (fun t => sqrt (det2 (gram 2 (J t))))).
  { apply functional_extensionality. intros t. unfold Y, log_volume2. apply exp_half_ln, Hd. }
  apply (energy_from_pointwise T I E Y _ 2 HE ltac:(lra) IY); [rewrite HeY; exact Isq | exact Ien | |].
  - unfold Y. rewrite EY, Hlog. ring.
  - intros t. apply energy_pointwise2, Hd.
Qed.

(** Equality case: for a faithful expectation, energy exactly 2 forces
    [J^T J = I] at every sample (trace-determinant equality, no spectral
    theorem). *)
Theorem dirichlet_jacobian_equality2 :
  forall T I E (J : T -> mat), is_expectation T I E ->
  (forall f, I f -> (forall t, 0 <= f t) -> E f = 0 -> forall t, f t = 0) ->
  (forall t, 0 < det2 (gram 2 (J t))) ->
  I (fun t => log_volume2 (J t)) -> I (fun t => dirichlet_energy2 (J t)) ->
  I (fun t => sqrt (det2 (gram 2 (J t)))) ->
  E (fun t => log_volume2 (J t)) = 0 ->
  E (fun t => dirichlet_energy2 (J t)) = 2 ->
  forall t i k, (i < 2)%nat -> (k < 2)%nat -> gram 2 (J t) i k = kron i k.
Proof.
  intros T I E J HE Hfaith Hd Ilog Ien Isq Hlog Hen t i k Hi Hk.
  set (Y := fun t => / 2 * log_volume2 (J t)).
  destruct (expectation_scal T I E HE (/ 2) _ Ilog) as [IY EY].
  assert (HeY : (fun t => exp (Y t)) = (fun t => sqrt (det2 (gram 2 (J t))))).
  { apply functional_extensionality. intros s. unfold Y, log_volume2. apply exp_half_ln, Hd. }
  destruct (energy_equality_pointwise T I E Y _ 2 HE Hfaith ltac:(lra) IY
              ltac:(rewrite HeY; exact Isq) Ien ltac:(unfold Y; rewrite EY, Hlog; ring)
              (fun s => energy_pointwise2 (J s) (Hd s)) Hen t) as [Hy Hf].
  unfold Y, log_volume2 in Hy.
  assert (Hdet : det2 (gram 2 (J t)) = 1).
  { assert (Hl : ln (det2 (gram 2 (J t))) = 0) by lra.
    rewrite <- (exp_ln _ (Hd t)), Hl. apply exp_0. }
  unfold dirichlet_energy2 in Hf.
  assert (Heq : sqrt (det2 (gram 2 (J t))) = mtrace 2 (gram 2 (J t)) / 2)
    by (rewrite Hdet, sqrt_1, Hf; field).
  rewrite (trace_det_equality2 _ (gram_psd2 (J t)) Heq i k Hi Hk), Hf. field.
Qed.

(** What a Gaussian-preserving map of minimal Dirichlet energy satisfies, for
    its Jacobian field [J] on [R^2]: [det (J^T J) > 0], the side conditions of
    integrability, [E ln det (J^T J) = 0] and [E tr (J^T J) = 2]. *)
Definition dirichlet_optimal2 (I : (vec -> R) -> Prop) (E : (vec -> R) -> R) (J : vec -> mat) : Prop :=
  (forall x, 0 < det2 (gram 2 (J x))) /\
  I (fun x => log_volume2 (J x)) /\ I (fun x => dirichlet_energy2 (J x)) /\
  I (fun x => sqrt (det2 (gram 2 (J x)))) /\
  E (fun x => log_volume2 (J x)) = 0 /\ E (fun x => dirichlet_energy2 (J x)) = 2.

Lemma dirichlet_optimal2_orthogonal :
  forall I E J, is_expectation vec I E ->
  (forall f, I f -> (forall t, 0 <= f t) -> E f = 0 -> forall t, f t = 0) ->
  dirichlet_optimal2 I E J -> orthogonal_jacobian 2 J.
Proof.
  intros I E J HE Hfaith [Hd [Ilog [Ien [Isq [Hlog Hen]]]]] x v.
  apply gram_identity_norm2. intros i k Hi Hk.
  exact (dirichlet_jacobian_equality2 vec I E J HE Hfaith Hd Ilog Ien Isq Hlog Hen x i k Hi Hk).
Qed.

(** Dirichlet route, assembled in [R^2] with no orthogonal-Jacobian
    hypothesis: for a faithful expectation on functions of [R^2], if [h] and
    its inverse [g] have Jacobian fields [J], [Jg] (derivatives along lines)
    that both preserve the Gaussian with energy exactly 2, and [h] fixes the
    origin, then [h = Q z] with [Q^T Q = I]. *)
Theorem dirichlet_identifiability2 :
  forall I E h J g Jg, is_expectation vec I E ->
  (forall f, I f -> (forall t, 0 <= f t) -> E f = 0 -> forall t, f t = 0) ->
  has_jacobian 2 h J -> dirichlet_optimal2 I E J ->
  has_jacobian 2 g Jg -> dirichlet_optimal2 I E Jg ->
  (forall x, veq 2 (g (h x)) x) ->
  veq 2 (h (fun _ => 0)) (fun _ => 0) ->
  exists Q : mat,
    (forall i k, (i < 2)%nat -> (k < 2)%nat -> fsum 2 (fun j => Q j i * Q j k) = kron i k) /\
    forall z, veq 2 (h z) (mapply 2 Q z).
Proof.
  intros I E h J g Jg HE Hfaith Hh HJ Hg HJg Hinv H0.
  apply (dirichlet_identifiability 2 h J g Jg Hh (dirichlet_optimal2_orthogonal I E J HE Hfaith HJ)
           Hg (dirichlet_optimal2_orthogonal I E Jg HE Hfaith HJg) Hinv H0).
Qed.

(** The hypotheses of [dirichlet_identifiability2] can all hold at once: the
    identity of [R^2] (coordinates past 2 set to 0), its own inverse, with the
    identity Jacobian, under the expectation [E f = f 0] on the constant
    functions (normalized, linear, monotone and faithful). *)
Definition trunc2 (x : vec) : vec := fun i => if Nat.ltb i 2 then x i else 0.

Theorem dirichlet_identifiability2_satisfiable :
  exists (I : (vec -> R) -> Prop) (E : (vec -> R) -> R) (h : vec -> vec) (J : vec -> mat),
    is_expectation vec I E /\
    (forall f, I f -> (forall t, 0 <= f t) -> E f = 0 -> forall t, f t = 0) /\
    has_jacobian 2 h J /\ dirichlet_optimal2 I E J /\
    (forall x, veq 2 (h (h x)) x) /\ veq 2 (h (fun _ => 0)) (fun _ => 0).
Proof.
  set (I := fun f : vec -> R => exists c, forall x, f x = c).
  set (E := fun f : vec -> R => f (fun _ => 0)).
  assert (Hc : forall c, I (fun _ => c)) by (intros c; exists c; reflexivity).
  assert (Hdet : det2 (gram 2 kron) = 1) by (unfold det2, gram, kron; simpl; ring).
  assert (Htr : dirichlet_energy2 kron = 2)
    by (unfold dirichlet_energy2, mtrace, gram, kron; simpl; ring).
  exists I, E, trunc2, (fun _ => kron). split; [|split; [|split; [|split; [|split]]]].
  - split; [intros c; split; [apply Hc | reflexivity]|]. split.
    + intros a b f g [cf Hf] [cg Hg]. split; [exists (a * cf + b * cg); intros x; rewrite Hf, Hg; reflexivity|].
      reflexivity.
    + intros f g _ _ H. apply H.
  - intros f [c Hf] _ H0 t. unfold E in H0. rewrite Hf in H0. rewrite Hf. exact H0.
  - intros x v i t. unfold trunc2, mapply. destruct (Nat.ltb i 2) eqn:Hi.
    + apply Nat.ltb_lt in Hi.
      replace (fsum 2 (fun j => kron i j * v j)) with (v i)
        by (symmetry; apply fsum_kron; exact Hi).
      unfold vadd, vscal. auto_derive; [exact Logic.I|]. ring.
    + apply Nat.ltb_ge in Hi.
      replace (fsum 2 (fun j => kron i j * v j)) with 0.
      * auto_derive; [exact Logic.I|]. ring.
      * unfold kron. simpl. destruct (Nat.eq_dec i 0); destruct (Nat.eq_dec i 1); try lia. ring.
  - unfold dirichlet_optimal2, log_volume2. rewrite Hdet, Htr, ln_1, sqrt_1.
    split; [intros; lra|]. split; [apply Hc|]. split; [apply Hc|]. split; [apply Hc|].
    split; reflexivity.
  - intros x i Hi. unfold trunc2. apply Nat.ltb_lt in Hi. rewrite Hi. reflexivity.
  - intros i Hi. unfold trunc2. destruct (Nat.ltb i 2); reflexivity.
Qed.

(** ** The [n x n] determinant and the Cholesky factor of [J^T J].

    [det] is the Laplace (cofactor) expansion along the first column,
    [det (S m) A = sum_i (-1)^i A_i0 det m (minor i 0 A)], with [det 0 = 1];
    it agrees with [det2] and with the written-out 3 x 3 cofactor expansion
    [det3] ([det_det2], [det_det3]).  From the definition: linearity in each
    row, determinant 0 for two equal adjacent rows, a sign change when two
    adjacent rows are exchanged, hence determinant 0 for any two equal rows,
    invariance under adding a multiple of one row to another, and the Schur
    step [det A = A_00 det (schur A)] for [A_00 <> 0].  These give, for every
    [n], [det] of a triangular matrix (the product of its diagonal) and
    [det (C^T C) = prod_i C_ii^2] for [C] upper triangular
    ([det_gram_upper]), without the general product rule; and, by induction
    on the number of columns with the Schur complement (Gram-Schmidt on the
    columns of [J]), a Cholesky factor of [J^T J] whenever
    [det (J^T J) > 0] ([cholesky_exists]), and [det (J^T J) > 0] exactly when
    the columns of [J] are linearly independent ([gram_det_pos_iff]). *)

Definition upper_triangular (n : nat) (C : mat) : Prop :=
  forall i j, (i < n)%nat -> (j < i)%nat -> C i j = 0.

(** [C] is a Cholesky factor of [J^T J]. *)
Definition cholesky_factor (n : nat) (J C : mat) : Prop :=
  upper_triangular n C /\ forall i k, (i < n)%nat -> (k < n)%nat -> gram n C i k = gram n J i k.

Lemma fsum_shift : forall n f, fsum (S n) f = f 0%nat + fsum n (fun i => f (S i)).
Proof.
  induction n as [|n IH]; intros f; [simpl; ring|].
  change (fsum (S (S n)) f) with (fsum (S n) f + f (S n)). rewrite IH. simpl. ring.
Qed.

Lemma fprod_shift : forall n f, fprod (S n) f = f 0%nat * fprod n (fun i => f (S i)).
Proof.
  induction n as [|n IH]; intros f; [simpl; ring|].
  change (fprod (S (S n)) f) with (fprod (S n) f * f (S n)). rewrite IH. simpl. ring.
Qed.

(** [f r + f s] when every other term vanishes. *)
Lemma fsum_two : forall n f r s, (r < n)%nat -> (s < n)%nat -> r <> s ->
  (forall i, (i < n)%nat -> i <> r -> i <> s -> f i = 0) -> fsum n f = f r + f s.
Proof.
  intros n f r s Hr Hs Hrs H.
  rewrite (fsum_ext n f (fun i => kron r i * f r + kron s i * f s)).
  - rewrite fsum_plus.
    pose proof (fsum_kron n r (fun _ => f r) Hr) as K1. pose proof (fsum_kron n s (fun _ => f s) Hs) as K2.
    cbv beta in K1, K2. rewrite K1, K2. reflexivity.
  - intros i Hi. unfold kron. destruct (Nat.eq_dec r i) as [E1|E1]; destruct (Nat.eq_dec s i) as [E2|E2].
    + congruence.
    + subst. ring.
    + subst. ring.
    + rewrite H by auto. ring.
Qed.

(** ** The [n x n] determinant: Laplace (cofactor) expansion along the first column.

    The first column is chosen because every induction below removes the
    first row and column (the Schur step, the triangular case, the Cholesky
    recursion): with this expansion they read off the definition. *)

(** [skip i r]: the [r]-th index once index [i] is struck out. *)
Definition skip (i r : nat) : nat := if Nat.ltb r i then r else S r.
(** The minor: row [i] and column [j] struck out. *)
Definition minor (i j : nat) (A : mat) : mat := fun r c => A (skip i r) (skip j c).

Fixpoint det (n : nat) (A : mat) : R :=
  match n with
  | O => 1
  | S m => fsum (S m) (fun i => (-1) ^ i * A i 0%nat * det m (minor i 0 A))
  end.

Lemma det_S : forall n A, det (S n) A = fsum (S n) (fun i => (-1) ^ i * A i 0%nat * det n (minor i 0 A)).
Proof. reflexivity. Qed.

Lemma det_ext : forall n A B, (forall i j, (i < n)%nat -> (j < n)%nat -> A i j = B i j) -> det n A = det n B.
Proof.
  induction n as [|n IH]; intros A B H; [reflexivity|]. rewrite !det_S. apply fsum_ext. intros i Hi.
  rewrite (H i 0%nat Hi ltac:(lia)), (IH (minor i 0 A) (minor i 0 B)); [reflexivity|].
  intros r c Hr Hc. unfold minor, skip. apply H; destruct (Nat.ltb _ _); lia.
Qed.

(** Agreement with the written-out formulas. *)
Theorem det_det2 : forall A, det 2 A = det2 A.
Proof. intros A. unfold det2, det, minor, skip. simpl. ring. Qed.

Definition det3 (A : mat) : R :=
  A 0%nat 0%nat * (A 1%nat 1%nat * A 2%nat 2%nat - A 1%nat 2%nat * A 2%nat 1%nat)
  - A 0%nat 1%nat * (A 1%nat 0%nat * A 2%nat 2%nat - A 1%nat 2%nat * A 2%nat 0%nat)
  + A 0%nat 2%nat * (A 1%nat 0%nat * A 2%nat 1%nat - A 1%nat 1%nat * A 2%nat 0%nat).

Theorem det_det3 : forall A, det 3 A = det3 A.
Proof. intros A. unfold det3, det, minor, skip. simpl. ring. Qed.

(** Rows. *)
Definition set_row (r : nat) (v : nat -> R) (A : mat) : mat := fun i j => if Nat.eq_dec i r then v j else A i j.
Definition unskip (i r : nat) : nat := if Nat.ltb r i then r else pred r.

Lemma skip_unskip_iff : forall i r q, r <> i -> (skip i q = r <-> q = unskip i r).
Proof. intros i r q H. unfold skip, unskip. destruct (Nat.ltb_spec q i), (Nat.ltb_spec r i); lia. Qed.

Lemma unskip_lt : forall i r m, r <> i -> (r < S m)%nat -> (i < S m)%nat -> (unskip i r < m)%nat.
Proof. intros i r m H Hr Hi. unfold unskip. destruct (Nat.ltb_spec r i); lia. Qed.

Lemma minor_set_row_other : forall i r v A, r <> i ->
  minor i 0 (set_row r v A) = set_row (unskip i r) (fun c => v (skip 0 c)) (minor i 0 A).
Proof.
  intros i r v A H. apply functional_extensionality. intros q. apply functional_extensionality. intros c.
  pose proof (skip_unskip_iff i r q H) as E. unfold minor, set_row.
  destruct (Nat.eq_dec (skip i q) r); destruct (Nat.eq_dec q (unskip i r)); tauto.
Qed.

Lemma minor_set_row_same : forall i v A, minor i 0 (set_row i v A) = minor i 0 A.
Proof.
  intros i v A. apply functional_extensionality. intros q. apply functional_extensionality. intros c.
  unfold minor, set_row. destruct (Nat.eq_dec (skip i q) i) as [E|]; [|reflexivity].
  exfalso. unfold skip in E. destruct (Nat.ltb_spec q i); lia.
Qed.

Lemma set_row_id : forall r A, set_row r (A r) A = A.
Proof.
  intros r A. apply functional_extensionality. intros i. apply functional_extensionality. intros j.
  unfold set_row. destruct (Nat.eq_dec i r) as [->|]; reflexivity.
Qed.

Lemma set_row_comm : forall r s x y A, r <> s -> set_row r x (set_row s y A) = set_row s y (set_row r x A).
Proof.
  intros r s x y A H. apply functional_extensionality. intros i. apply functional_extensionality. intros j.
  unfold set_row. destruct (Nat.eq_dec i r); destruct (Nat.eq_dec i s); congruence.
Qed.

(** The determinant is linear in each row. *)
Lemma det_row_lin : forall n A r a b u v, (r < n)%nat ->
  det n (set_row r (fun j => a * u j + b * v j) A) = a * det n (set_row r u A) + b * det n (set_row r v A).
Proof.
  induction n as [|m IH]; intros A r a b u v Hr; [lia|].
  rewrite !det_S, <- !fsum_scal, <- fsum_plus. apply fsum_ext. intros i Hi.
  destruct (Nat.eq_dec i r) as [->|Hne].
  - rewrite !minor_set_row_same. unfold set_row. destruct (Nat.eq_dec r r); [ring | congruence].
  - rewrite !minor_set_row_other by congruence.
    pose proof (IH (minor i 0 A) (unskip i r) a b (fun c => u (skip 0 c)) (fun c => v (skip 0 c))
                  ltac:(apply unskip_lt; lia)) as H. cbv beta in H. rewrite H.
    assert (Hent : forall w, set_row r w A i 0%nat = A i 0%nat)
      by (intros w; unfold set_row; destruct (Nat.eq_dec i r); congruence).
    rewrite !Hent. ring.
Qed.

Lemma skip_unskip_adj : forall i r, i <> r -> i <> S r ->
  skip i (unskip i r) = r /\ skip i (S (unskip i r)) = S r.
Proof.
  intros i r H1 H2. unfold skip, unskip. destruct (Nat.ltb_spec r i).
  - destruct (Nat.ltb_spec r i), (Nat.ltb_spec (S r) i); split; lia.
  - destruct (Nat.ltb_spec (pred r) i), (Nat.ltb_spec (S (pred r)) i); split; lia.
Qed.

(** Two equal adjacent rows give determinant 0. *)
Lemma det_adjacent_eq : forall n A r, (S r < n)%nat -> (forall j, A r j = A (S r) j) -> det n A = 0.
Proof.
  induction n as [|m IH]; intros A r Hr Heq; [lia|]. rewrite det_S.
  assert (Hmin : minor r 0 A = minor (S r) 0 A).
  { apply functional_extensionality. intros q. apply functional_extensionality. intros c.
    unfold minor, skip. destruct (Nat.ltb_spec q r), (Nat.ltb_spec q (S r)); try lia; try reflexivity.
    replace q with r by lia. symmetry. apply Heq. }
  rewrite (fsum_two (S m) _ r (S r)); [| lia | lia | lia |].
  2: { intros i Hi H1 H2. destruct (skip_unskip_adj i r H1 H2) as [E1 E2].
       rewrite (IH (minor i 0 A) (unskip i r)); [ring | unfold unskip; destruct (Nat.ltb_spec r i); lia |].
       intros j. unfold minor. rewrite E1, E2. apply Heq. }
  rewrite Hmin, Heq, <- tech_pow_Rmult. ring.
Qed.

(** Exchanging two adjacent rows changes the sign. *)
Lemma det_swap_adjacent : forall n A r x y, (S r < n)%nat ->
  det n (set_row r x (set_row (S r) y A)) = - det n (set_row r y (set_row (S r) x A)).
Proof.
  intros n A r x y Hr.
  set (B := fun u v => set_row r u (set_row (S r) v A)).
  assert (Hz : forall w, det n (B w w) = 0).
  { intros w. apply (det_adjacent_eq n _ r Hr). intros j. unfold B, set_row.
    destruct (Nat.eq_dec r r); destruct (Nat.eq_dec (S r) r); destruct (Nat.eq_dec (S r) (S r)); try lia. reflexivity. }
  set (w := fun j => 1 * x j + 1 * y j).
  assert (L1 : forall z, det n (B w z) = det n (B x z) + det n (B y z)).
  { intros z. unfold B, w. rewrite det_row_lin by lia. ring. }
  assert (L2 : forall z, det n (B z w) = det n (B z x) + det n (B z y)).
  { intros z. unfold B, w. rewrite !(set_row_comm r (S r)) by lia. rewrite det_row_lin by lia. ring. }
  pose proof (Hz w) as H. rewrite L1, !L2, !Hz in H. fold (B x y) (B y x). lra.
Qed.

(** Two equal rows give determinant 0. *)
Lemma det_eq_rows_d : forall d n A r, (r + S d < n)%nat -> (forall j, A r j = A (r + S d)%nat j) -> det n A = 0.
Proof.
  induction d as [|d IH]; intros n A r Hn Heq.
  - apply (det_adjacent_eq n A r); [lia|]. intros j. rewrite Heq. f_equal. lia.
  - set (p := (r + S d)%nat). replace (r + S (S d))%nat with (S p) in * by (unfold p; lia).
    pose proof (det_swap_adjacent n A p (A (S p)) (A p) Hn) as Hs.
    rewrite (set_row_id (S p) A), (set_row_id p A) in Hs.
    assert (H0 : det n (set_row p (A (S p)) (set_row (S p) (A p) A)) = 0).
    { apply (IH n _ r); [unfold p in *; lia|]. intros j. unfold set_row.
      destruct (Nat.eq_dec r p); [unfold p in *; lia|]. destruct (Nat.eq_dec r (S p)); [lia|].
      fold p. destruct (Nat.eq_dec p p); [|congruence]. apply Heq. }
    lra.
Qed.

Lemma det_eq_rows : forall n A r s, (r < n)%nat -> (s < n)%nat -> r <> s ->
  (forall j, A r j = A s j) -> det n A = 0.
Proof.
  intros n A r s Hr Hs Hrs Heq. destruct (Nat.lt_total r s) as [Hlt|[Hlt|Hlt]]; [| lia |].
  - apply (det_eq_rows_d (s - S r) n A r); [lia|]. replace (r + S (s - S r))%nat with s by lia. exact Heq.
  - apply (det_eq_rows_d (r - S s) n A s); [lia|]. replace (s + S (r - S s))%nat with r by lia.
    intros j. symmetry. apply Heq.
Qed.

(** Adding a multiple of another row leaves the determinant unchanged. *)
Lemma det_row_add : forall n A r s c, (r < n)%nat -> (s < n)%nat -> r <> s ->
  det n (set_row s (fun j => A s j + c * A r j) A) = det n A.
Proof.
  intros n A r s c Hr Hs Hrs.
  replace (fun j => A s j + c * A r j) with (fun j => 1 * A s j + c * A r j)
    by (apply functional_extensionality; intros; ring).
  rewrite det_row_lin by exact Hs. rewrite set_row_id.
  rewrite (det_eq_rows n (set_row s (A r) A) r s Hr Hs Hrs); [ring|].
  intros j. unfold set_row. destruct (Nat.eq_dec r s); [congruence|]. destruct (Nat.eq_dec s s); [reflexivity | congruence].
Qed.

(** Elimination below the first row: adding [c_i] times row 0 to every row
    [i >= 1] leaves the determinant unchanged. *)
Lemma det_elim : forall n A (c : nat -> R), c 0%nat = 0 ->
  det n (fun i j => A i j + c i * A 0%nat j) = det n A.
Proof.
  intros n A c Hc0.
  set (M := fun k i j => A i j + (if Nat.ltb i k then c i else 0) * A 0%nat j).
  assert (Hrow0 : forall k j, M k 0%nat j = A 0%nat j)
    by (intros k j; unfold M; destruct (Nat.ltb 0 k); rewrite ?Hc0; ring).
  assert (Hk : forall k, (k <= n)%nat -> det n (M k) = det n A).
  { induction k as [|k IH]; intros Hk.
    - apply det_ext. intros i j _ _. unfold M. replace (Nat.ltb i 0) with false by (destruct i; reflexivity). ring.
    - assert (HM : M (S k) = set_row k (fun j => M k k j + c k * M k 0%nat j) (M k)).
      { apply functional_extensionality. intros i. apply functional_extensionality. intros j.
        unfold set_row. rewrite Hrow0. destruct (Nat.eq_dec i k) as [->|Hne].
        - unfold M. replace (Nat.ltb k (S k)) with true by (symmetry; apply Nat.ltb_lt; lia).
          replace (Nat.ltb k k) with false by (symmetry; apply Nat.ltb_ge; lia). ring.
        - unfold M. destruct (Nat.ltb_spec i (S k)), (Nat.ltb_spec i k); try lia; ring. }
      rewrite HM, <- (IH ltac:(lia)). destruct k as [|k].
      + replace (fun j => M 0%nat 0%nat j + c 0%nat * M 0%nat 0%nat j) with (M 0%nat 0%nat)
          by (apply functional_extensionality; intros; rewrite Hc0; ring).
        rewrite set_row_id. reflexivity.
      + apply det_row_add; lia. }
  rewrite <- (Hk n (le_n n)). apply det_ext. intros i j Hi _. unfold M.
  replace (Nat.ltb i n) with true by (symmetry; apply Nat.ltb_lt; exact Hi). reflexivity.
Qed.

(** The Schur complement of the (0, 0) entry. *)
Definition schur (A : mat) : mat := fun i j => A (S i) (S j) - A (S i) 0%nat / A 0%nat 0%nat * A 0%nat (S j).

Lemma minor00 : forall A, minor 0 0 A = fun i j => A (S i) (S j).
Proof. intros A. reflexivity. Qed.

(** [det A = A_00 det (schur A)] when [A_00 <> 0]. *)
Lemma det_schur : forall n A, A 0%nat 0%nat <> 0 -> det (S n) A = A 0%nat 0%nat * det n (schur A).
Proof.
  intros n A Ha.
  set (c := fun i => match i with O => 0 | S _ => - (A i 0%nat / A 0%nat 0%nat) end).
  rewrite <- (det_elim (S n) A c) by reflexivity. rewrite det_S, fsum_shift.
  rewrite (fsum_ext n _ (fun _ => 0)).
  - rewrite fsum_const, minor00. simpl pow. unfold c. rewrite Rmult_0_r, Rplus_0_r.
    replace (A 0%nat 0%nat + 0 * A 0%nat 0%nat) with (A 0%nat 0%nat) by ring.
    rewrite Rmult_1_l. f_equal. apply det_ext. intros i j _ _. unfold schur. cbv beta. ring.
  - intros i _. unfold c. field_simplify; [ring | exact Ha].
Qed.

(** A first column of zeros gives determinant 0. *)
Lemma det_col0_zero : forall n A, (forall i, (i < S n)%nat -> A i 0%nat = 0) -> det (S n) A = 0.
Proof.
  intros n A H. rewrite det_S. rewrite (fsum_ext (S n) _ (fun _ => 0)); [rewrite fsum_const; ring|].
  intros i Hi. rewrite H by exact Hi. ring.
Qed.

(** A triangular determinant is the product of the diagonal. *)
Theorem det_upper_triangular : forall n A, upper_triangular n A -> det n A = fprod n (fun i => A i i).
Proof.
  induction n as [|n IH]; intros A Hup; [reflexivity|].
  rewrite det_S, fsum_shift, fprod_shift, (fsum_ext n _ (fun _ => 0)).
  - rewrite fsum_const, minor00, (IH (fun i j => A (S i) (S j))); [simpl; ring|].
    intros i j Hi Hj. apply Hup; lia.
  - intros i Hi. rewrite (Hup (S i) 0%nat) by lia. ring.
Qed.

(** [gram] over [S m] rows: the first row and the rest. *)
Lemma gram_S : forall m C i k, gram (S m) C i k = C 0%nat i * C 0%nat k + gram m (fun r c => C (S r) c) i k.
Proof. intros m C i k. unfold gram. rewrite fsum_shift. reflexivity. Qed.

Lemma gram_sym : forall m J i k, gram m J i k = gram m J k i.
Proof. intros m J i k. unfold gram. apply fsum_ext. intros; ring. Qed.

(** For [C] upper triangular, [det (C^T C) = prod_i C_ii^2], by induction on
    [n]: the first column of [C^T C] is [C_00] times the first row of [C], so
    either it vanishes ([C_00 = 0], both sides 0) or the Schur step applies,
    and the Schur complement of [C^T C] is [C'^T C'] for the lower-right block
    [C'] of [C]. *)
Theorem det_gram_upper : forall n C, upper_triangular n C -> det n (gram n C) = fprod n (fun i => C i i ^ 2).
Proof.
  induction n as [|m IH]; intros C Hup; [reflexivity|].
  set (C' := fun i j => C (S i) (S j)).
  assert (Hup' : upper_triangular m C') by (intros i j Hi Hj; apply Hup; lia).
  assert (Hz : forall r, (r < m)%nat -> C (S r) 0%nat = 0) by (intros r Hr; apply Hup; lia).
  assert (Hcol : forall i, gram (S m) C i 0%nat = C 0%nat i * C 0%nat 0%nat).
  { intros i. rewrite gram_S. unfold gram. rewrite (fsum_ext m _ (fun _ => 0)); [rewrite fsum_const; ring|].
    intros r Hr. rewrite Hz by exact Hr. ring. }
  rewrite fprod_shift. destruct (Req_dec (C 0%nat 0%nat) 0) as [H0|H0].
  - rewrite det_col0_zero; [rewrite H0; ring|]. intros i _. rewrite Hcol, H0. ring.
  - rewrite det_schur by (rewrite Hcol; intros E; apply H0; nra).
    rewrite Hcol, (det_ext m _ (gram m C')), (IH C' Hup'); [unfold C'; cbv beta; ring|].
    intros i k _ _. unfold schur. rewrite (gram_sym (S m) C 0%nat (S k)), !Hcol, gram_S.
    unfold gram, C'. field. exact H0.
Qed.

(** One Gram-Schmidt step: the columns [1 ..] of [J] minus their projections
    on column 0 (shifted to [0 ..]); its Gram matrix is the Schur complement
    of [J^T J]. *)
Definition gs_step (m : nat) (J : mat) : mat :=
  fun r c => J r (S c) - gram m J 0%nat (S c) / gram m J 0%nat 0%nat * J r 0%nat.

Lemma gram_gs_step : forall m J, gram m J 0%nat 0%nat <> 0 ->
  forall i k, gram m (gs_step m J) i k = schur (gram m J) i k.
Proof.
  intros m J Ha i k. set (G := gram m J) in *. set (a := G 0%nat 0%nat) in *.
  unfold schur. fold a. replace (G (S i) 0%nat) with (G 0%nat (S i)) by apply gram_sym.
  unfold gram at 1, gs_step. fold G a.
  rewrite (fsum_ext m _ (fun j => J j (S i) * J j (S k) - G 0%nat (S k) / a * (J j 0%nat * J j (S i))
                                  - G 0%nat (S i) / a * (J j 0%nat * J j (S k))
                                  + G 0%nat (S i) / a * (G 0%nat (S k) / a) * (J j 0%nat * J j 0%nat)))
    by (intros; ring).
  rewrite fsum_plus, !fsum_minus, !fsum_scal.
  change (fsum m (fun j => J j 0%nat * J j (S i))) with (G 0%nat (S i)).
  change (fsum m (fun j => J j 0%nat * J j (S k))) with (G 0%nat (S k)).
  change (fsum m (fun j => J j 0%nat * J j 0%nat)) with a.
  change (fsum m (fun j => J j (S i) * J j (S k))) with (G (S i) (S k)). field. exact Ha.
Qed.

(** The first column of a Gram matrix vanishes with its squared norm. *)
Lemma gram_col0_zero : forall m J, gram m J 0%nat 0%nat = 0 -> forall r, (r < m)%nat -> J r 0%nat = 0.
Proof.
  intros m J H r Hr. pose proof (fsum_nonneg_zero m (fun j => J j 0%nat * J j 0%nat)
                                   (fun j _ => Rle_0_sqr (J j 0%nat)) H r Hr) as E.
  cbv beta in E. nra.
Qed.

(** A Cholesky factor by induction on the number of columns, with the Schur
    complement: for [J] with [m] rows and [n] columns whose Gram determinant
    is positive, the first column has positive squared norm [a]; the other
    columns minus their projections on it form [J'], whose Gram matrix is the
    Schur complement of [J^T J], so its determinant is positive too and [J']
    has a factor [C'] by induction; then [[sqrt a, g^T / sqrt a; 0, C']]
    ([g] the first row of [J^T J] past the diagonal) is a factor of [J]. *)
Lemma cholesky_exists_rect : forall n m J, 0 < det n (gram m J) ->
  exists C, upper_triangular n C /\ (forall i k, (i < n)%nat -> (k < n)%nat -> gram n C i k = gram m J i k) /\
            (forall i, (i < n)%nat -> C i i <> 0).
Proof.
  induction n as [|n IH]; intros m J Hd.
  - exists kron. split; [intros i j Hi; lia|]. split; intros; lia.
  - set (G := gram m J) in *. set (a := G 0%nat 0%nat).
    assert (Ha0 : 0 <= a) by (apply fsum_nonneg; intros; apply Rle_0_sqr).
    assert (Ha : 0 < a).
    { destruct Ha0 as [|Ha0]; [assumption|]. exfalso.
      pose proof (gram_col0_zero m J (eq_sym Ha0)) as Hc.
      rewrite det_col0_zero in Hd; [lra|]. intros i _. unfold G, gram.
      rewrite (fsum_ext m _ (fun _ => 0)); [rewrite fsum_const; ring|]. intros r Hr. rewrite Hc by exact Hr. ring. }
    assert (HGs : forall i k, G i k = G k i) by (intros; unfold G; apply gram_sym).
    set (J' := gs_step m J).
    assert (HS : forall i k, gram m J' i k = schur G i k) by (intros; apply gram_gs_step; fold G a; lra).
    assert (Hd' : 0 < det n (gram m J')).
    { rewrite det_schur in Hd by (fold a; lra). fold a in Hd.
      rewrite (det_ext n (gram m J') (schur G)) by (intros; apply HS).
      apply (Rmult_lt_reg_l a); [exact Ha|]. lra. }
    destruct (IH m J' Hd') as [C' [Hup' [Hg' Hd'']]].
    assert (Sa : sqrt a * sqrt a = a) by (apply sqrt_sqrt; lra).
    assert (Pa : 0 < sqrt a) by (apply sqrt_lt_R0, Ha).
    set (C := fun i j => match i, j with
                         | O, O => sqrt a
                         | O, S j' => G 0%nat (S j') / sqrt a
                         | S _, O => 0
                         | S i', S j' => C' i' j'
                         end).
    exists C. split; [|split].
    + intros i j Hi Hj. destruct i as [|i]; [lia|]. destruct j as [|j]; [reflexivity|].
      apply Hup'; lia.
    + intros i k Hi Hk. rewrite gram_S.
      destruct i as [|i]; destruct k as [|k]; unfold gram at 1; simpl C.
      * rewrite (fsum_ext n _ (fun _ => 0)) by (intros; ring). rewrite fsum_const. fold a. lra.
      * rewrite (fsum_ext n _ (fun _ => 0)) by (intros; ring). rewrite fsum_const. field. lra.
      * rewrite (fsum_ext n _ (fun _ => 0)) by (intros; ring). rewrite fsum_const. fold G.
        rewrite (HGs (S i) 0%nat). field. lra.
      * change (fsum n (fun j => C' j i * C' j k)) with (gram n C' i k).
        rewrite Hg' by lia. rewrite HS. unfold schur. fold G a. rewrite (HGs (S i) 0%nat).
        replace (G 0%nat (S i) / sqrt a * (G 0%nat (S k) / sqrt a))
          with (G 0%nat (S i) * G 0%nat (S k) / (sqrt a * sqrt a)) by (field; lra).
        rewrite Sa. field. lra.
    + intros i Hi. destruct i as [|i]; simpl C; [lra|]. apply Hd''. lia.
Qed.

(** Every [n x n] Jacobian with [det (J^T J) > 0] (linearly independent
    columns) has a Cholesky factor of [J^T J] with nonzero diagonal. *)
Theorem cholesky_exists : forall n J, 0 < det n (gram n J) ->
  exists C, cholesky_factor n J C /\ (forall i, (i < n)%nat -> C i i <> 0).
Proof.
  intros n J Hd. destruct (cholesky_exists_rect n n J Hd) as [C [Hup [Hg Hdiag]]].
  exists C. split; [split|]; assumption.
Qed.

(** [det (J^T J)] is the squared diagonal product of any Cholesky factor. *)
Theorem det_gram_chol : forall n J C, cholesky_factor n J C -> det n (gram n J) = fprod n (fun i => C i i ^ 2).
Proof.
  intros n J C [Hup HC]. rewrite <- (det_gram_upper n C Hup). apply det_ext. intros i k Hi Hk. symmetry. apply HC; assumption.
Qed.

(** Linear independence of the [n] columns of [J] ([m] rows). *)
Definition cols_independent (m n : nat) (J : mat) : Prop :=
  forall x, (forall r, (r < m)%nat -> fsum n (fun c => J r c * x c) = 0) -> forall c, (c < n)%nat -> x c = 0.

(** Independent columns give [det (J^T J) > 0]: the first column is not 0, and
    the Gram-Schmidt step keeps the remaining columns independent. *)
Lemma gram_det_pos_of_indep : forall n m J, cols_independent m n J -> 0 < det n (gram m J).
Proof.
  induction n as [|n IH]; intros m J Hind; [simpl; lra|].
  set (a := gram m J 0%nat 0%nat).
  assert (Ha : 0 < a).
  { assert (Ha0 : 0 <= a) by (apply fsum_nonneg; intros; apply Rle_0_sqr).
    destruct Ha0 as [|Ha0]; [assumption|]. exfalso.
    pose proof (gram_col0_zero m J (eq_sym Ha0)) as Hc.
    assert (H1 : kron 0 0 = 0).
    { apply (Hind (kron 0)); [|lia]. intros r Hr. rewrite fsum_shift, Hc by exact Hr.
      rewrite (fsum_ext n _ (fun _ => 0)); [rewrite fsum_const; ring|].
      intros d _. unfold kron. destruct (Nat.eq_dec 0 (S d)); [lia | ring]. }
    unfold kron in H1. destruct (Nat.eq_dec 0 0); [lra | congruence]. }
  assert (Hind' : cols_independent m n (gs_step m J)).
  { intros y Hy c Hc.
    set (x := fun c => match c with
                       | O => - fsum n (fun d => gram m J 0%nat (S d) / a * y d)
                       | S d => y d
                       end).
    change (x (S c) = 0). apply (Hind x); [|lia]. intros r Hr. rewrite fsum_shift. simpl x.
    rewrite <- (Hy r Hr). unfold gs_step. fold a.
    rewrite (fsum_ext n (fun c0 => (J r (S c0) - gram m J 0%nat (S c0) / a * J r 0%nat) * y c0)
               (fun d => J r (S d) * y d - J r 0%nat * (gram m J 0%nat (S d) / a * y d))) by (intros; ring).
    rewrite fsum_minus, fsum_scal. ring. }
  rewrite det_schur by (fold a; lra). fold a.
  rewrite <- (det_ext n (gram m (gs_step m J))) by (intros; apply gram_gs_step; fold a; lra).
  apply Rmult_lt_0_compat; [exact Ha | apply IH, Hind'].
Qed.

(** The determinant is linear in a row that is a finite combination of rows. *)
Lemma det_row_comb : forall n A k N (c : nat -> R) (B : mat), (k < n)%nat ->
  det n (set_row k (fun j => fsum N (fun i => c i * B i j)) A) = fsum N (fun i => c i * det n (set_row k (B i) A)).
Proof.
  intros n A k N c B Hk. induction N as [|N IH].
  - simpl. replace (fun _ : nat => 0) with (fun j : nat => 0 * B 0%nat j + 0 * B 0%nat j)
      by (apply functional_extensionality; intros; ring).
    rewrite det_row_lin by exact Hk. ring.
  - change (fsum (S N) (fun i => c i * det n (set_row k (B i) A)))
      with (fsum N (fun i => c i * det n (set_row k (B i) A)) + c N * det n (set_row k (B N) A)).
    rewrite <- IH.
    replace (fun j => fsum (S N) (fun i => c i * B i j))
      with (fun j => 1 * fsum N (fun i => c i * B i j) + c N * B N j)
      by (apply functional_extensionality; intros; simpl; ring).
    rewrite det_row_lin by exact Hk. ring.
Qed.

(** Rows that are linearly dependent (a combination with a nonzero
    coefficient [c_k] vanishes) give determinant 0. *)
Lemma det_rows_dependent : forall n A c k, (k < n)%nat -> c k <> 0 ->
  (forall j, fsum n (fun i => c i * A i j) = 0) -> det n A = 0.
Proof.
  intros n A c k Hk Hck H.
  assert (H0 : det n (set_row k (fun j => fsum n (fun i => c i * A i j)) A) = c k * det n A).
  { rewrite det_row_comb by exact Hk.
    rewrite (fsum_ext n _ (fun i => kron k i * (c k * det n A))).
    - pose proof (fsum_kron n k (fun _ => c k * det n A) Hk) as K. cbv beta in K. exact K.
    - intros i Hi. unfold kron. destruct (Nat.eq_dec k i) as [<-|Hne].
      + rewrite set_row_id. ring.
      + rewrite (det_eq_rows n (set_row k (A i) A) i k); [ring | exact Hi | exact Hk | congruence |].
        intros j. unfold set_row. destruct (Nat.eq_dec i k); [congruence|]. destruct (Nat.eq_dec k k); [reflexivity | congruence]. }
  replace (fun j => fsum n (fun i => c i * A i j)) with (fun j : nat => 0 * A k j + 0 * A k j) in H0
    by (apply functional_extensionality; intros j; rewrite H; ring).
  rewrite det_row_lin in H0 by exact Hk.
  apply (Rmult_eq_reg_l (c k)); [lra | exact Hck].
Qed.

(** [det (J^T J) > 0] iff the columns of [J] are linearly independent
    ([J x = 0] only for [x = 0]): the premise of the every-[n] theorems is
    the invertibility of the Jacobian. *)
Theorem gram_det_pos_iff : forall n J,
  0 < det n (gram n J) <-> (forall x, veq n (mapply n J x) (fun _ => 0) -> veq n x (fun _ => 0)).
Proof.
  intros n J. split.
  - intros Hd x Hx c Hc. destruct (Req_dec (x c) 0) as [|Hne]; [assumption|]. exfalso.
    assert (Hz : det n (gram n J) = 0).
    { apply (det_rows_dependent n (gram n J) x c Hc Hne). intros j.
      (* sum_i x_i (J^T J)_ij = sum_r J_rj (J x)_r = 0 *)
      unfold gram.
      rewrite (fsum_ext n _ (fun i => fsum n (fun r => J r j * (J r i * x i)))) by
        (intros i _; rewrite <- fsum_scal; apply fsum_ext; intros; ring).
      rewrite fsum_swap.
      rewrite (fsum_ext n _ (fun _ => 0)); [rewrite fsum_const; ring|].
      intros r Hr. rewrite fsum_scal. pose proof (Hx r Hr) as E. unfold mapply in E. rewrite E. ring. }
    lra.
  - intros H. apply gram_det_pos_of_indep. intros x Hx c Hc. apply (H x); [|exact Hc].
    intros r Hr. unfold mapply. apply Hx, Hr.
Qed.

(** ** The energies from the Jacobian, every dimension.

    The Dirichlet energy is [tr (J^T J) = |J|_F^2] and the volume term is
    [ln det (J^T J)] with the [n x n] determinant above.  For the inequality a
    Cholesky factor [C] of [J^T J] is taken ([cholesky_exists]; [det (J^T J) =
    prod_i C_ii^2] by [det_gram_chol]): [tr (J^T J) = tr (C^T C) = sum_ij
    C_ji^2 >= sum_i C_ii^2 >= n (prod_i C_ii^2)^(1/n)] (scalar AM-GM), with
    equality iff [C] is diagonal with equal [C_ii^2], i.e. [J^T J = c I].  The
    statements mention only [J], [det] and the trace; the factor is internal
    to the proofs. *)

(** The Dirichlet energy [tr (J^T J) = |J|_F^2], the log volume
    [ln det (J^T J)], and (inside the proofs) the log volume
    [ln prod_i C_ii^2] of a Cholesky factor [C]. *)
Definition dirichlet_energy (n : nat) (J : mat) : R := mtrace n (gram n J).
Definition log_volume (n : nat) (J : mat) : R := ln (det n (gram n J)).
Definition chol_log_volume (n : nat) (C : mat) : R := ln (fprod n (fun i => C i i ^ 2)).

Lemma mtrace_gram : forall n J, mtrace n (gram n J) = fsum n (fun i => fsum n (fun j => J j i ^ 2)).
Proof. intros n J. unfold mtrace, gram. apply fsum_ext. intros i _. apply fsum_ext. intros; ring. Qed.

(** The column sums minus their diagonal term: [sum_j (1 - [i = j]) C_ji^2]. *)
Lemma col_offdiag : forall n C i, (i < n)%nat ->
  fsum n (fun j => C j i ^ 2) - C i i ^ 2 = fsum n (fun j => (1 - kron i j) * C j i ^ 2).
Proof.
  intros n C i Hi. rewrite (fsum_ext n (fun j => (1 - kron i j) * C j i ^ 2)
                              (fun j => C j i ^ 2 - kron i j * C j i ^ 2)) by (intros; ring).
  rewrite fsum_minus, (fsum_kron n i (fun j => C j i ^ 2) Hi). reflexivity.
Qed.

Lemma offdiag_nonneg : forall i j (x : R), 0 <= (1 - kron i j) * x ^ 2.
Proof.
  intros i j x. unfold kron. destruct (Nat.eq_dec i j); [lra|].
  pose proof (pow2_ge_0 x). lra.
Qed.

(** [sum_i C_ii^2 <= tr (C^T C)]. *)
Lemma diag_le_trace : forall n C, fsum n (fun i => C i i ^ 2) <= mtrace n (gram n C).
Proof.
  intros n C. rewrite mtrace_gram. apply fsum_le. intros i Hi.
  pose proof (col_offdiag n C i Hi) as H.
  pose proof (fsum_nonneg n _ (fun j _ => offdiag_nonneg i j (C j i))). lra.
Qed.

(** Equality in it: [C] is diagonal. *)
Lemma diag_eq_trace : forall n C, fsum n (fun i => C i i ^ 2) = mtrace n (gram n C) ->
  forall i j, (i < n)%nat -> (j < n)%nat -> i <> j -> C j i = 0.
Proof.
  intros n C Heq i j Hi Hj Hne. rewrite mtrace_gram in Heq.
  assert (Hz : fsum n (fun i => fsum n (fun j => C j i ^ 2) - C i i ^ 2) = 0)
    by (rewrite fsum_minus; lra).
  assert (Hnn : forall i, (i < n)%nat -> 0 <= fsum n (fun j => C j i ^ 2) - C i i ^ 2).
  { intros k Hk. rewrite col_offdiag by exact Hk. apply fsum_nonneg. intros; apply offdiag_nonneg. }
  pose proof (fsum_nonneg_zero n _ Hnn Hz i Hi) as Hcol. cbv beta in Hcol. rewrite col_offdiag in Hcol by exact Hi.
  pose proof (fsum_nonneg_zero n _ (fun j _ => offdiag_nonneg i j (C j i)) Hcol j Hj) as Hij.
  unfold kron in Hij. destruct (Nat.eq_dec i j); [congruence|].
  apply Rsqr_0_uniq. unfold Rsqr. replace (C j i * C j i) with (C j i ^ 2) by ring. lra.
Qed.

Lemma sq_pos_neq : forall x : R, x <> 0 -> 0 < x ^ 2.
Proof. intros x Hx. pose proof (Rsqr_pos_lt x Hx). unfold Rsqr in *. simpl. lra. Qed.

(** Pointwise energy bound: [n (prod_i C_ii^2)^(1/n) <= tr (J^T J)]. *)
Lemma energy_pointwise_chol : forall n J C, (0 < n)%nat -> cholesky_factor n J C ->
  (forall i, (i < n)%nat -> C i i <> 0) ->
  INR n * exp (/ INR n * chol_log_volume n C) <= dirichlet_energy n J.
Proof.
  intros n J C Hn [_ HR] Hd.
  assert (Ht : dirichlet_energy n J = mtrace n (gram n C)).
  { unfold dirichlet_energy, mtrace. apply fsum_ext. intros i Hi. symmetry. apply HR; exact Hi. }
  rewrite Ht. unfold chol_log_volume.
  eapply Rle_trans; [apply (energy_pointwise n (fun i => C i i ^ 2) Hn)|apply diag_le_trace].
  intros i Hi. apply sq_pos_neq, Hd, Hi.
Qed.

(** Pointwise equality case: volume 1 and energy [n] force [J^T J = I]. *)
Lemma chol_equality_pointwise : forall n J C, (0 < n)%nat -> cholesky_factor n J C ->
  (forall i, (i < n)%nat -> C i i <> 0) ->
  chol_log_volume n C = 0 -> dirichlet_energy n J = INR n ->
  forall i k, (i < n)%nat -> (k < n)%nat -> gram n J i k = kron i k.
Proof.
  intros n J C Hn [Hup HC] Hd Hv He i k Hi Hk.
  assert (Hn' : 0 < INR n) by (apply lt_0_INR; exact Hn).
  set (a := fun i => C i i ^ 2).
  assert (Ha : forall i, (i < n)%nat -> 0 < a i) by (intros; apply sq_pos_neq, Hd; assumption).
  assert (Ht : mtrace n (gram n C) = INR n).
  { rewrite <- He. unfold dirichlet_energy, mtrace. apply fsum_ext. intros l Hl. apply HC; exact Hl. }
  assert (Hp : fprod n a = 1).
  { unfold chol_log_volume in Hv. fold a in Hv.
    rewrite <- (exp_ln _ (fprod_pos n a Ha)), Hv. apply exp_0. }
  pose proof (energy_pointwise n a Hn Ha) as Hag. rewrite Hp, ln_1, Rmult_0_r, exp_0, Rmult_1_r in Hag.
  pose proof (diag_le_trace n C) as Hdt. fold a in Hdt.
  assert (Hs : fsum n a = INR n) by lra.
  assert (Hoff : forall i j, (i < n)%nat -> (j < n)%nat -> i <> j -> C j i = 0)
    by (apply diag_eq_trace; fold a; lra).
  assert (Hm : fmean n a = 1) by (unfold fmean; rewrite Hs; field; lra).
  assert (Hone : forall i, (i < n)%nat -> a i = 1).
  { intros l Hl. rewrite <- Hm. apply am_gm_equality; [exact Hn | intros; left; apply Ha; assumption | lra | | exact Hl].
    rewrite Hp, Hm, pow1. reflexivity. }
  rewrite <- HC by assumption. unfold gram.
  rewrite (fsum_ext n _ (fun j => kron i j * (C i i * C i k))).
  - rewrite (fsum_kron n i (fun _ => C i i * C i k) Hi). unfold kron.
    destruct (Nat.eq_dec i k) as [<-|Hne].
    + pose proof (Hone i Hi) as H1. unfold a in H1. simpl in H1. lra.
    + rewrite (Hoff k i Hk Hi (fun E => Hne (eq_sym E))). ring.
  - intros j Hj. unfold kron. destruct (Nat.eq_dec i j) as [<-|Hne]; [ring|].
    rewrite (Hoff i j Hi Hj Hne). ring.
Qed.

(** The trace-determinant AM-GM for [J^T J], every [n]: if
    [det (J^T J) > 0] then [n (det (J^T J))^(1/n) <= tr (J^T J)]. *)
Theorem trace_det_am_gm : forall n J, (0 < n)%nat -> 0 < det n (gram n J) ->
  INR n * Rpower (det n (gram n J)) (/ INR n) <= mtrace n (gram n J).
Proof.
  intros n J Hn Hd. destruct (cholesky_exists n J Hd) as [C [HC Hdiag]].
  unfold Rpower. rewrite (det_gram_chol n J C HC).
  exact (energy_pointwise_chol n J C Hn HC Hdiag).
Qed.

(** Its equality case: [det (J^T J) = 1] and [tr (J^T J) = n] force [J^T J = I]. *)
Theorem trace_det_equality : forall n J, (0 < n)%nat ->
  det n (gram n J) = 1 -> mtrace n (gram n J) = INR n ->
  forall i k, (i < n)%nat -> (k < n)%nat -> gram n J i k = kron i k.
Proof.
  intros n J Hn Hd Ht. destruct (cholesky_exists n J ltac:(rewrite Hd; lra)) as [C [HC Hdiag]].
  apply (chol_equality_pointwise n J C Hn HC Hdiag); [|exact Ht].
  unfold chol_log_volume. rewrite <- (det_gram_chol n J C HC), Hd. apply ln_1.
Qed.

Lemma energy_pointwise_det : forall n J, (0 < n)%nat -> 0 < det n (gram n J) ->
  INR n * exp (/ INR n * log_volume n J) <= dirichlet_energy n J.
Proof. intros n J Hn Hd. exact (trace_det_am_gm n J Hn Hd). Qed.

(** The Dirichlet-energy bound from the Jacobian, every [n]: if
    [det (J^T J) > 0] at every sample and [E ln det (J^T J) = 0] (the
    Gaussian is preserved), then [E tr (J^T J) >= n].  Side conditions: the
    log volume, the energy and the geometric mean [det (J^T J)^(1/n)] are
    integrable. *)
Theorem dirichlet_jacobian_bound :
  forall T I E n (J : T -> mat), is_expectation T I E -> (0 < n)%nat ->
  (forall t, 0 < det n (gram n (J t))) ->
  I (fun t => log_volume n (J t)) -> I (fun t => dirichlet_energy n (J t)) ->
  I (fun t => exp (/ INR n * log_volume n (J t))) ->
  E (fun t => log_volume n (J t)) = 0 ->
  INR n <= E (fun t => dirichlet_energy n (J t)).
Proof.
  intros T I E n J HE Hn Hd Ilog Ien Igm Hlog.
  destruct (expectation_scal T I E HE (/ INR n) _ Ilog) as [IY EY].
  apply (energy_from_pointwise T I E (fun t => / INR n * log_volume n (J t)) _ (INR n) HE
           (pos_INR n) IY Igm Ien).
  - rewrite EY, Hlog. ring.
  - intros t. apply energy_pointwise_det; [exact Hn | apply Hd].
Qed.

(** Equality case, every [n]: for a faithful expectation, energy exactly [n]
    forces [J^T J = I] at every sample (no spectral theorem). *)
Theorem dirichlet_jacobian_equality :
  forall T I E n (J : T -> mat), is_expectation T I E ->
  (forall f, I f -> (forall t, 0 <= f t) -> E f = 0 -> forall t, f t = 0) -> (0 < n)%nat ->
  (forall t, 0 < det n (gram n (J t))) ->
  I (fun t => log_volume n (J t)) -> I (fun t => dirichlet_energy n (J t)) ->
  I (fun t => exp (/ INR n * log_volume n (J t))) ->
  E (fun t => log_volume n (J t)) = 0 ->
  E (fun t => dirichlet_energy n (J t)) = INR n ->
  forall t i k, (i < n)%nat -> (k < n)%nat -> gram n (J t) i k = kron i k.
Proof.
  intros T I E n J HE Hfaith Hn Hd Ilog Ien Igm Hlog Hen t.
  assert (Hn' : 0 < INR n) by (apply lt_0_INR; exact Hn).
  destruct (expectation_scal T I E HE (/ INR n) _ Ilog) as [IY EY].
  destruct (energy_equality_pointwise T I E (fun s => / INR n * log_volume n (J s)) _ (INR n) HE Hfaith
              Hn' IY Igm Ien ltac:(rewrite EY, Hlog; ring)
              (fun s => energy_pointwise_det n (J s) Hn (Hd s)) Hen t) as [Hy Hf].
  apply (trace_det_equality n (J t) Hn); [|exact Hf].
  assert (Hl : log_volume n (J t) = 0).
  { apply (Rmult_eq_reg_l (/ INR n)); [rewrite Hy; ring | apply Rinv_neq_0_compat; lra]. }
  unfold log_volume in Hl. rewrite <- (exp_ln _ (Hd t)), Hl. apply exp_0.
Qed.

(** [J^T J = I] makes [J] norm preserving. *)
Lemma gram_identity_norm : forall n J,
  (forall i k, (i < n)%nat -> (k < n)%nat -> gram n J i k = kron i k) ->
  forall v, nsq n (mapply n J v) = nsq n v.
Proof.
  intros n J H v. unfold nsq at 1, dot, mapply.
  rewrite (fsum_ext n _ (fun i => fsum n (fun j => fsum n (fun k => J i j * v j * (J i k * v k)))))
    by (intros; apply fsum_mul_fsum).
  rewrite fsum_swap.
  rewrite (fsum_ext n _ (fun j => fsum n (fun k => v j * v k * gram n J j k))).
  - unfold nsq, dot. apply fsum_ext. intros j Hj.
    rewrite (fsum_ext n _ (fun k => kron j k * (v j * v k))) by (intros; rewrite H by assumption; ring).
    apply (fsum_kron n j (fun k => v j * v k) Hj).
  - intros j _. rewrite fsum_swap. apply fsum_ext. intros k _. unfold gram.
    rewrite <- fsum_scal. apply fsum_ext. intros; ring.
Qed.

(** What a Gaussian-preserving map of minimal Dirichlet energy satisfies, for
    its Jacobian field [J] on [R^n]: [det (J^T J) > 0], the side conditions
    of integrability, [E ln det (J^T J) = 0] and [E tr (J^T J) = n]. *)
Definition dirichlet_optimal (n : nat) (I : (vec -> R) -> Prop) (E : (vec -> R) -> R) (J : vec -> mat) : Prop :=
  (forall x, 0 < det n (gram n (J x))) /\
  I (fun x => log_volume n (J x)) /\ I (fun x => dirichlet_energy n (J x)) /\
  I (fun x => exp (/ INR n * log_volume n (J x))) /\
  E (fun x => log_volume n (J x)) = 0 /\ E (fun x => dirichlet_energy n (J x)) = INR n.

Lemma dirichlet_optimal_orthogonal :
  forall n I E J, (0 < n)%nat -> is_expectation vec I E ->
  (forall f, I f -> (forall t, 0 <= f t) -> E f = 0 -> forall t, f t = 0) ->
  dirichlet_optimal n I E J -> orthogonal_jacobian n J.
Proof.
  intros n I E J Hn HE Hfaith [Hd [Ilog [Ien [Igm [Hlog Hen]]]]] x v.
  apply gram_identity_norm. intros i k Hi Hk.
  exact (dirichlet_jacobian_equality vec I E n J HE Hfaith Hn Hd Ilog Ien Igm Hlog Hen x i k Hi Hk).
Qed.

(** Dirichlet route, assembled in every dimension with no orthogonal-Jacobian
    hypothesis: for a faithful expectation on functions of [R^n], if [h] and
    its inverse [g] have Jacobian fields that both preserve the Gaussian
    (log volume [ln det (J^T J)] with zero mean) with energy exactly [n],
    and [h] fixes the origin, then [h = Q z] with [Q^T Q = I]. *)
Theorem dirichlet_identifiability_n :
  forall n I E h J g Jg, (0 < n)%nat -> is_expectation vec I E ->
  (forall f, I f -> (forall t, 0 <= f t) -> E f = 0 -> forall t, f t = 0) ->
  has_jacobian n h J -> dirichlet_optimal n I E J ->
  has_jacobian n g Jg -> dirichlet_optimal n I E Jg ->
  (forall x, veq n (g (h x)) x) ->
  veq n (h (fun _ => 0)) (fun _ => 0) ->
  exists Q : mat,
    (forall i k, (i < n)%nat -> (k < n)%nat -> fsum n (fun j => Q j i * Q j k) = kron i k) /\
    forall z, veq n (h z) (mapply n Q z).
Proof.
  intros n I E h J g Jg Hn HE Hfaith Hh HJ Hg HJg Hinv H0.
  apply (dirichlet_identifiability n h J g Jg Hh (dirichlet_optimal_orthogonal n I E J Hn HE Hfaith HJ)
           Hg (dirichlet_optimal_orthogonal n I E Jg Hn HE Hfaith HJg) Hinv H0).
Qed.

(** The hypotheses of [dirichlet_identifiability_n] can all hold at once, in
    every dimension [n > 0]: the identity of [R^n] (coordinates past [n] set
    to 0), its own inverse, with the identity Jacobian ([det (I^T I) = 1]),
    under the expectation [E f = f 0] on the constant
    functions (normalized, linear, monotone and faithful). *)
Definition trunc (n : nat) (x : vec) : vec := fun i => if Nat.ltb i n then x i else 0.

Lemma gram_kron : forall n i k, (i < n)%nat -> gram n kron i k = kron i k.
Proof.
  intros n i k Hi. unfold gram.
  rewrite (fsum_ext n _ (fun j => kron i j * kron j k)) by (intros j _; rewrite (kron_sym j i); reflexivity).
  apply (fsum_kron n i (fun j => kron j k) Hi).
Qed.

(** The identity's Jacobian [kron], shared by the non-vacuity witnesses: unit Gram
    determinant, zero log-volume, Dirichlet energy [n]. *)
Lemma kron_volume_energy : forall n,
  det n (gram n kron) = 1 /\ log_volume n kron = 0 /\ dirichlet_energy n kron = INR n.
Proof.
  intros n.
  assert (Hdet : det n (gram n kron) = 1).
  { rewrite det_gram_upper by (intros i j _ Hji; unfold kron; destruct (Nat.eq_dec i j); [lia | reflexivity]).
    rewrite (fprod_ext n _ (fun _ => 1)); [|intros i _; unfold kron; destruct (Nat.eq_dec i i); [ring | congruence]].
    clear. induction n as [|n IH]; simpl; [reflexivity | rewrite IH; ring]. }
  assert (Hvol : log_volume n kron = 0) by (unfold log_volume; rewrite Hdet; apply ln_1).
  assert (Hen : dirichlet_energy n kron = INR n).
  { unfold dirichlet_energy, mtrace. rewrite (fsum_ext n _ (fun _ => 1)); [rewrite fsum_const; ring|].
    intros i Hi. rewrite gram_kron by exact Hi. unfold kron. destruct (Nat.eq_dec i i); [reflexivity | congruence]. }
  repeat split; assumption.
Qed.

Lemma trunc_jacobian : forall n, has_jacobian n (trunc n) (fun _ => kron).
Proof.
  intros n x v i t. unfold trunc, mapply. destruct (Nat.ltb i n) eqn:Hi.
  - apply Nat.ltb_lt in Hi.
    replace (fsum n (fun j => kron i j * v j)) with (v i)
      by (symmetry; apply fsum_kron; exact Hi).
    unfold vadd, vscal. auto_derive; [exact Logic.I|]. ring.
  - apply Nat.ltb_ge in Hi.
    replace (fsum n (fun j => kron i j * v j)) with 0.
    + auto_derive; [exact Logic.I|]. ring.
    + rewrite (fsum_ext n _ (fun _ => 0)); [rewrite fsum_const; ring|].
      intros j Hj. unfold kron. destruct (Nat.eq_dec i j); [lia | ring].
Qed.

Theorem dirichlet_identifiability_n_satisfiable :
  forall n, (0 < n)%nat ->
  exists (I : (vec -> R) -> Prop) (E : (vec -> R) -> R) (h : vec -> vec) (J : vec -> mat),
    is_expectation vec I E /\
    (forall f, I f -> (forall t, 0 <= f t) -> E f = 0 -> forall t, f t = 0) /\
    has_jacobian n h J /\ dirichlet_optimal n I E J /\
    (forall x, veq n (h (h x)) x) /\ veq n (h (fun _ => 0)) (fun _ => 0).
Proof.
  intros n Hn.
  set (I := fun f : vec -> R => exists c, forall x, f x = c).
  set (E := fun f : vec -> R => f (fun _ => 0)).
  assert (Hc : forall c, I (fun _ => c)) by (intros c; exists c; reflexivity).
  destruct (kron_volume_energy n) as [Hdet [Hvol Hen]].
  exists I, E, (trunc n), (fun _ => kron). split; [|split; [|split; [|split; [|split]]]].
  - split; [intros c; split; [apply Hc | reflexivity]|]. split.
    + intros a b f g [cf Hf] [cg Hg]. split; [exists (a * cf + b * cg); intros x; rewrite Hf, Hg; reflexivity|].
      reflexivity.
    + intros f g _ _ H. apply H.
  - intros f [c Hf] _ H0 t. unfold E in H0. rewrite Hf in H0. rewrite Hf. exact H0.
  - apply trunc_jacobian.
  - split; [|split; [|split; [|split; [|split]]]].
    + intros x. rewrite Hdet. lra.
    + rewrite Hvol. apply Hc.
    + rewrite Hen. apply Hc.
    + rewrite Hvol. apply Hc.
    + unfold E. rewrite Hvol. reflexivity.
    + unfold E. rewrite Hen. reflexivity.
  - intros x i Hi. unfold trunc. apply Nat.ltb_lt in Hi. rewrite Hi. reflexivity.
  - intros i Hi. unfold trunc. destruct (Nat.ltb i n); reflexivity.
Qed.

(** The every-[n] hypotheses contain the two-dimensional ones: [det 2] is
    [det2], so [dirichlet_optimal2] implies [dirichlet_optimal 2] and
    [dirichlet_identifiability_n] at [n = 2] covers
    [dirichlet_identifiability2]. *)
Theorem dirichlet_optimal2_general : forall I E J, dirichlet_optimal2 I E J -> dirichlet_optimal 2 I E J.
Proof.
  intros I E J [Hd [Ilog [Ien [Isq [Hlog Hen]]]]].
  assert (Hv : (fun x => log_volume 2 (J x)) = (fun x => log_volume2 (J x))).
  { apply functional_extensionality. intros x. unfold log_volume, log_volume2. rewrite det_det2. reflexivity. }
  assert (He : (fun x => dirichlet_energy 2 (J x)) = (fun x => dirichlet_energy2 (J x)))
    by reflexivity.
  assert (Hg : (fun x => exp (/ INR 2 * log_volume 2 (J x))) = (fun x => sqrt (det2 (gram 2 (J x))))).
  { apply functional_extensionality. intros x. unfold log_volume. rewrite det_det2.
    replace (INR 2) with 2 by (simpl; ring). apply exp_half_ln, Hd. }
  split; [intros x; rewrite det_det2; apply Hd|].
  rewrite Hv, He, Hg. split; [exact Ilog|]. split; [exact Ien|]. split; [exact Isq|].
  split; [exact Hlog|]. rewrite Hen. simpl. ring.
Qed.
