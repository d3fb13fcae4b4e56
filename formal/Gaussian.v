(** * Improper integrals against the Gaussian: the second moment is finite.

    Proved here (no axiom): a continuous nonnegative function whose
    primitive [x |-> int_a^x g] is bounded has an improper Riemann integral
    over the whole line (Coquelicot's [ex_RInt_gen]); the Gaussian second
    moment [(x - m)^2 K exp (- c (x - m)^2 / 2)] is such a function (it is
    dominated by [K (|u| + |u|^3) exp (- c u^2 / 2)], [u = x - m], whose
    primitive [- K (1 / c + u^2 / c + 2 / c^2) exp (- c u^2 / 2)] is bounded). *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz Classical.
Open Scope R_scope.

Section Improper.
  Variables (g : R -> R) (a B : R).
  Hypothesis g_cont : forall x, continuous g x.
  Hypothesis g_nonneg : forall x, 0 <= g x.
  Hypothesis g_bound : forall x, Rabs (RInt g a x) <= B.

  Let F := fun x => RInt g a x.

  Lemma g_ex_RInt : forall u v, ex_RInt g u v.
  Proof. intros u v. apply (@ex_RInt_continuous R_CompleteNormedModule). intros z _. apply g_cont. Qed.

  Lemma F_derive : forall x, is_derive F x (g x).
  Proof.
    intros x. apply (is_derive_RInt g F a x); [|apply g_cont].
    apply filter_forall. intros y. unfold F. apply (RInt_correct g a y), g_ex_RInt.
  Qed.

  Lemma F_mono : forall x y, x <= y -> F x <= F y.
  Proof.
    intros x y Hxy. unfold F. rewrite <- (RInt_Chasles g a x y) by apply g_ex_RInt.
    pose proof (RInt_ge_0 g x y Hxy (g_ex_RInt x y) (fun t _ => g_nonneg t)).
    unfold plus; simpl. lra.
  Qed.

  Lemma ball_R : forall L eps y, Rabs (y - L) < eps -> ball L eps y.
  Proof. intros L eps y H. unfold ball; simpl. unfold AbsRing_ball, abs, minus, plus, opp; simpl. exact H. Qed.

  Lemma F_lim_p : exists L, filterlim F (Rbar_locally p_infty) (locally L).
  Proof.
    set (E := fun y => exists x, y = F x).
    assert (HE : bound E).
    { exists B. intros y [x ->]. pose proof (g_bound x). unfold F. apply Rabs_le_between in H. lra. }
    destruct (completeness E HE (ex_intro _ (F 0) (ex_intro _ 0 eq_refl))) as [L [Hub Hlub]].
    exists L. apply filterlim_locally. intros eps.
    destruct (classic (exists x0, L - eps < F x0)) as [[x0 Hx0]|Hno].
    - exists x0. intros x Hx. apply ball_R.
      pose proof (F_mono x0 x (Rlt_le _ _ Hx)). pose proof (Hub (F x) (ex_intro _ x eq_refl)).
      pose proof (cond_pos eps). apply Rabs_lt_between'. lra.
    - exfalso. assert (Hb : is_upper_bound E (L - eps)).
      { intros y [x ->]. apply Rnot_lt_le. intros Hlt. apply Hno. exists x. exact Hlt. }
      pose proof (Hlub _ Hb). pose proof (cond_pos eps). lra.
  Qed.

  Lemma F_lim_m : exists L, filterlim F (Rbar_locally m_infty) (locally L).
  Proof.
    set (E := fun y => exists x, y = - F x).
    assert (HE : bound E).
    { exists B. intros y [x ->]. pose proof (g_bound x). unfold F. apply Rabs_le_between in H. lra. }
    destruct (completeness E HE (ex_intro _ (- F 0) (ex_intro _ 0 eq_refl))) as [L [Hub Hlub]].
    exists (- L). apply filterlim_locally. intros eps.
    destruct (classic (exists x0, L - eps < - F x0)) as [[x0 Hx0]|Hno].
    - exists x0. intros x Hx. apply ball_R.
      pose proof (F_mono x x0 (Rlt_le _ _ Hx)). pose proof (Hub (- F x) (ex_intro _ x eq_refl)).
      pose proof (cond_pos eps). apply Rabs_lt_between'. lra.
    - exfalso. assert (Hb : is_upper_bound E (L - eps)).
      { intros y [x ->]. apply Rnot_lt_le. intros Hlt. apply Hno. exists x. exact Hlt. }
      pose proof (Hlub _ Hb). pose proof (cond_pos eps). lra.
  Qed.

  Theorem bounded_primitive_improper : ex_RInt_gen g (Rbar_locally m_infty) (Rbar_locally p_infty).
  Proof.
    destruct F_lim_m as [la Ha]. destruct F_lim_p as [lb Hb].
    exists (lb - la).
    apply (is_RInt_gen_ext (Derive F)).
    - apply filter_forall. intros ab x _. apply is_derive_unique, F_derive.
    - apply (is_RInt_gen_Derive F la lb); [| |exact Ha|exact Hb]; apply filter_forall.
      + intros ab x _. exists (g x). apply F_derive.
      + intros ab x _. apply (continuous_ext g); [|apply g_cont].
        intros t. symmetry. apply is_derive_unique, F_derive.
  Qed.
End Improper.

(** The Gaussian second moment. *)
Section SecondMoment.
  Variables (K c m : R).
  Hypothesis HK : 0 < K.
  Hypothesis Hc : 0 < c.

  Let E (x : R) : R := exp (- (c / 2) * (x - m) ^ 2).
  Let g (x : R) : R := (x - m) ^ 2 * (K * E x).
  Let h (x : R) : R := K * ((x - m) + (x - m) ^ 3) * E x.
  Let H (x : R) : R := - K * (/ c + (x - m) ^ 2 / c + 2 / c ^ 2) * E x.

  Lemma H_derive : forall x, is_derive H x (h x).
  Proof.
    intros x. unfold H, h, E. auto_derive; [exact I|].
    set (X := exp _). field. lra.
  Qed.

  Lemma h_cont : forall x, continuous h x.
  Proof. intros x. apply (ex_derive_continuous h). unfold h, E. auto_derive. exact I. Qed.

  Lemma g_cont' : forall x, continuous g x.
  Proof. intros x. apply (ex_derive_continuous g). unfold g, E. auto_derive. exact I. Qed.

  Lemma H_nonpos : forall x, H x <= 0.
  Proof.
    intros x. unfold H. assert (0 < E x) by (unfold E; apply exp_pos).
    assert (0 <= (x - m) ^ 2 / c) by (apply Rmult_le_pos; [apply pow2_ge_0 | left; apply Rinv_0_lt_compat, Hc]).
    assert (0 < / c) by (apply Rinv_0_lt_compat, Hc).
    assert (0 < 2 / c ^ 2) by (apply Rdiv_lt_0_compat; [lra | apply pow_lt, Hc]).
    assert (0 < / c + (x - m) ^ 2 / c + 2 / c ^ 2) by lra.
    assert (0 < K * (/ c + (x - m) ^ 2 / c + 2 / c ^ 2) * E x) by (apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; lra).
    lra.
  Qed.

  Lemma is_RInt_h : forall u v, is_RInt h u v (H v - H u).
  Proof.
    intros u v. apply (is_RInt_derive H h u v); intros; [apply H_derive | apply h_cont].
  Qed.

  Lemma g_bound' : forall x, Rabs (RInt g m x) <= - H m.
  Proof.
    intros x. assert (Hg : forall u v, ex_RInt g u v) by (intros; apply (@ex_RInt_continuous R_CompleteNormedModule); intros; apply g_cont').
    assert (Hpos : forall t, 0 <= g t).
    { intros t. unfold g. apply Rmult_le_pos; [apply pow2_ge_0|]. left. apply Rmult_lt_0_compat; [exact HK | apply exp_pos]. }
    pose proof (H_nonpos x).
    destruct (Rle_or_lt m x) as [Hmx|Hxm].
    - assert (Hle : RInt g m x <= H x - H m).
      { apply (is_RInt_le g h m x); [exact Hmx | apply (RInt_correct g m x), Hg | apply is_RInt_h |].
        intros t [Ht _]. unfold g, h. assert (0 < E t) by (unfold E; apply exp_pos).
        assert (0 <= (t - m) * (1 - (t - m) + (t - m) ^ 2)).
        { apply Rmult_le_pos; [lra|]. pose proof (pow2_ge_0 (t - m - / 2)). nra. }
        assert (0 < K * E t) by (apply Rmult_lt_0_compat; assumption). nra. }
      pose proof (RInt_ge_0 g m x Hmx (Hg m x) (fun t _ => Hpos t)).
      rewrite Rabs_pos_eq by lra. lra.
    - assert (Hle : RInt g x m <= H x - H m).
      { replace (H x - H m) with ((fun t => - H t) m - (fun t => - H t) x) by (cbv beta; ring).
        apply (is_RInt_le g (fun t => - h t) x m); [lra | apply (RInt_correct g x m), Hg | |].
        + apply (is_RInt_derive (fun t => - H t) (fun t => - h t) x m); intros.
          * apply (is_derive_opp H), H_derive.
          * apply (continuous_opp h), h_cont.
        + intros t [_ Ht]. unfold g, h. assert (0 < E t) by (unfold E; apply exp_pos).
          assert (0 <= (m - t) * (1 - (m - t) + (m - t) ^ 2)).
          { apply Rmult_le_pos; [lra|]. pose proof (pow2_ge_0 (m - t - / 2)). nra. }
          assert (0 < K * E t) by (apply Rmult_lt_0_compat; assumption). nra. }
      pose proof (RInt_ge_0 g x m (Rlt_le _ _ Hxm) (Hg x m) (fun t _ => Hpos t)).
      rewrite <- (opp_RInt_swap g x m (Hg x m)). change (opp (RInt g x m)) with (- RInt g x m).
      rewrite Rabs_Ropp, Rabs_pos_eq by lra. lra.
  Qed.

  (** The second moment of the Gaussian is finite. *)
  Theorem gaussian_second_moment :
    ex_RInt_gen (fun x => (x - m) ^ 2 * (K * exp (- (c / 2) * (x - m) ^ 2)))
      (Rbar_locally m_infty) (Rbar_locally p_infty).
  Proof.
    apply (bounded_primitive_improper g m (- H m)).
    - apply g_cont'.
    - intros t. unfold g. apply Rmult_le_pos; [apply pow2_ge_0|]. left. apply Rmult_lt_0_compat; [exact HK | apply exp_pos].
    - apply g_bound'.
  Qed.
End SecondMoment.
