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
    AM-GM, Jensen and Mazur-Ulam as axioms; this file declares no axiom. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz FunctionalExtensionality.
From LejepaId Require Import Prelude.
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
      [a t i] to be 1 at every sample [t].  (That a matrix whose squared
      singular values are all 1 has [J^T J = I] is the spectral theorem,
      not formalized: [dirichlet_identifiability] takes orthogonal Jacobians
      as its hypothesis.) *)
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
