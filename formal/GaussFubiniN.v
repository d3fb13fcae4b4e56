(** * The order of the iterated Gaussian integral, for continuous integrands
      of polynomial growth in n variables.

    [fclass n F]: [F] reads the first [n] coordinates only, is uniformly
    continuous on every box [[-r, r]^n] (for a function on R^n this is
    continuity, by Heine's theorem, which is not proved here; it is the
    form used), and grows at most polynomially,
    [|F z| <= C (1 + |z|^2)^k].  Proved here, no axiom:
    - [fclass_closure]: integrating out the innermost coordinate keeps the
      class ([z => E_x F (z with z_m := x)] is in [fclass m]);
    - [fclass_gclass]: [fclass n] is contained in [gclass n], the class of
      the Dirichlet theorems ([GaussianExpectation]);
    - [gexpn_fclass_order]: for every permutation [sigma] of the
      coordinates, [gexpn n (F o sigma) = gexpn n F], every inner integral
      existing in that order too: adjacent transpositions from
      [GaussFubini.gexp_fubini] (Fubini in two variables), a rotation of
      the coordinates as a product of them, and induction on [n];
    - [PolyN]-type integrands, the sums of products of one-variable
      polynomials ([HermiteN.sumprod]) of the first [n] coordinates, are in
      [fclass n] ([sumprod_fclass]). *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz FunctionalExtensionality.
From LejepaId Require Import Prelude Dirichlet GaussianMoments HermiteGauss HermiteN GaussianExpectation IntegrationOrder Fubini GaussFubini.
Open Scope R_scope.

Local Notation mI := (Rbar_locally m_infty).
Local Notation pI := (Rbar_locally p_infty).

(** ** The class. *)

Definition box (n : nat) (r : R) (z : vec) : Prop := forall j, (j < n)%nat -> Rabs (z j) <= r.
Definition near (n : nat) (d : R) (w z : vec) : Prop := forall j, (j < n)%nat -> Rabs (w j - z j) < d.

(** Uniformly continuous on every box [[-r, r]^n] of the first [n] coordinates. *)
Definition ucont (n : nat) (F : vec -> R) : Prop :=
  forall r (eps : posreal), exists delta : posreal,
    forall w z, box n r w -> box n r z -> near n delta w z -> Rabs (F w - F z) < eps.

(** Polynomial growth in the first [n] coordinates. *)
Definition pgrowth (n : nat) (F : vec -> R) : Prop :=
  exists C k, forall z, Rabs (F z) <= C * (1 + nsq n z) ^ k.

Definition fclass (n : nat) (F : vec -> R) : Prop := first_coords n F /\ ucont n F /\ pgrowth n F.

(** ** Coordinates. *)

Lemma nsq_S : forall m z, nsq (S m) z = nsq m z + z m * z m.
Proof. reflexivity. Qed.

Lemma vset_eq : forall z m x, vset z m x m = x.
Proof. intros. unfold vset. destruct (Nat.eq_dec m m); congruence. Qed.

Lemma vset_neq : forall z m x j, j <> m -> vset z m x j = z j.
Proof. intros. unfold vset. destruct (Nat.eq_dec j m); congruence. Qed.

Lemma nsq_vset : forall m z x, nsq m (vset z m x) = nsq m z.
Proof. intros m z x. unfold nsq, dot. apply fsum_ext. intros j Hj. rewrite vset_neq by lia. reflexivity. Qed.

Lemma nsq_vset_S : forall m z x, nsq (S m) (vset z m x) = nsq m z + x * x.
Proof. intros. rewrite nsq_S, nsq_vset, vset_eq. reflexivity. Qed.

Lemma nsq_nonneg : forall n z, 0 <= nsq n z.
Proof. intros n z. unfold nsq, dot. apply fsum_nonneg. intros. apply Rle_0_sqr. Qed.

Lemma nsq_box : forall n r z, box n r z -> nsq n z <= INR n * (r * r).
Proof.
  intros n r z H. unfold nsq, dot. rewrite <- fsum_const. apply fsum_le. intros j Hj.
  specialize (H j Hj). apply Rabs_le_between in H. nra.
Qed.

Lemma box_exists : forall n z, exists r, 0 <= r /\ box n r z.
Proof.
  induction n as [|m IH]; intros z.
  - exists 0. split; [lra|]. intros j Hj. lia.
  - destruct (IH z) as [r [Hr Hb]]. exists (Rmax r (Rabs (z m))). split; [eapply Rle_trans; [exact Hr | apply Rmax_l]|].
    intros j Hj. destruct (Nat.eq_dec j m) as [->|Hne]; [apply Rmax_r|].
    eapply Rle_trans; [apply Hb; lia | apply Rmax_l].
Qed.

Lemma box_vset : forall m r z x, box m r z -> Rabs x <= r -> box (S m) r (vset z m x).
Proof.
  intros m r z x Hb Hx j Hj. destruct (Nat.eq_dec j m) as [->|Hne]; [rewrite vset_eq; exact Hx|].
  rewrite vset_neq by exact Hne. apply Hb. lia.
Qed.

Lemma box_mono : forall n r r' z, r <= r' -> box n r z -> box n r' z.
Proof. intros n r r' z Hr Hb j Hj. eapply Rle_trans; [apply Hb, Hj | exact Hr]. Qed.

Lemma near_vset : forall m (d : posreal) w z x, near m d w z -> near (S m) d (vset w m x) (vset z m x).
Proof.
  intros m d w z x H j Hj. destruct (Nat.eq_dec j m) as [->|Hne].
  - rewrite !vset_eq, Rminus_eq_0, Rabs_R0. apply cond_pos.
  - rewrite !vset_neq by exact Hne. apply H. lia.
Qed.

Lemma growth1 : forall a b k, 0 <= a -> 0 <= b -> (1 + a + b) ^ k <= (1 + a) ^ k * (1 + b) ^ k.
Proof. intros a b k Ha Hb. rewrite <- Rpow_mult_distr. apply pow_incr. split; nra. Qed.

Lemma pgrowth_C : forall n F C k, (forall z, Rabs (F z) <= C * (1 + nsq n z) ^ k) -> 0 <= C.
Proof.
  intros n F C k H. specialize (H (fun _ => 0)). pose proof (Rabs_pos (F (fun _ => 0))).
  assert (0 < (1 + nsq n (fun _ => 0)) ^ k) by (apply pow_lt; pose proof (nsq_nonneg n (fun _ => 0)); lra).
  destruct (Rle_or_lt 0 C) as [|HC]; [assumption|]. nra.
Qed.

(** ** The weight [(1 + x^2)^k exp (- x^2 / 2)]. *)

Definition wk (k : nat) (x : R) : R := (1 + x ^ 2) ^ k * gauss x.
Definition Mk (k : nat) : R := RInt_gen (wk k) mI pI.

Lemma wk_is : forall k, is_RInt_gen (wk k) mI pI (Mk k).
Proof.
  intros k. apply (RInt_gen_correct (V := R_CompleteNormedModule)).
  destruct (poly_int _ (poly_weight 1 k) 0) as [l H]. exists l.
  apply (isg_ext _ _ l l H); [intros; unfold wk; ring | reflexivity].
Qed.

Lemma wk_cont : forall k x, continuous (wk k) x.
Proof.
  intros k x. apply (continuous_mult (fun x => (1 + x ^ 2) ^ k) gauss); [|apply gauss_cont].
  apply (poly_cont (fun x => (1 + x ^ 2) ^ k)).
  apply (poly_ext (fun x => 1 * (1 + x ^ 2) ^ k)); [apply poly_weight | intros; ring].
Qed.

Lemma wk_nonneg : forall k x, 0 <= wk k x.
Proof.
  intros k x. unfold wk. apply Rmult_le_pos; [apply pow_le; pose proof (pow2_ge_0 x); lra | left; apply gauss_pos].
Qed.

Lemma gauss_le_1 : forall x, gauss x <= 1.
Proof.
  intros x. unfold gauss. rewrite <- exp_0. pose proof (pow2_ge_0 x).
  destruct (Rle_lt_or_eq_dec 0 (x ^ 2 / 2)) as [H1|H1]; [lra| |].
  - left. apply exp_increasing. lra.
  - right. rewrite <- H1. f_equal. ring.
Qed.

(** A continuous [f] with [|f x| <= A (1 + x^2)^k] is Gaussian-integrable,
    with the bound and the tail bound of its integral. *)
Lemma wk_dom : forall (f : R -> R) A k, (forall x, continuous f x) ->
  (forall x, Rabs (f x) <= A * (1 + x ^ 2) ^ k) ->
  gintegrable1 f /\ Rabs (gint f) <= A * Mk k /\
  (forall a b, a <= b -> Rabs (gint f - RInt (fun x => f x * gauss x) a b) <= A * (Mk k - RInt (wk k) a b)).
Proof.
  intros f A k Hf Hb.
  assert (Hq : is_RInt_gen (fun x => A * wk k x) mI pI (A * Mk k)).
  { apply (isg_ext (fun x => A * wk k x + 0 * wk k x) _ (A * Mk k + 0 * Mk k)); [apply isg_lin; apply wk_is | intros; ring | ring]. }
  assert (Cq : forall x, continuous (fun x => A * wk k x) x)
    by (intros; apply (continuous_mult (fun _ => A) (wk k)); [apply continuous_const | apply wk_cont]).
  assert (Cf : forall x, continuous (fun x => f x * gauss x) x)
    by (intros; apply (continuous_mult f gauss); [apply Hf | apply gauss_cont]).
  assert (Bq : forall x, Rabs (f x * gauss x) <= A * wk k x).
  { intros x. unfold wk. rewrite Rabs_mult, (Rabs_pos_eq (gauss x)) by (left; apply gauss_pos).
    pose proof (gauss_pos x). specialize (Hb x).
    replace (A * ((1 + x ^ 2) ^ k * gauss x)) with (A * (1 + x ^ 2) ^ k * gauss x) by ring.
    apply Rmult_le_compat_r; lra. }
  assert (HI : gintegrable1 f) by exact (dom_ex _ _ _ Cf Cq Bq Hq).
  assert (T : forall a b, a <= b -> Rabs (gint f - RInt (fun x => f x * gauss x) a b) <= A * (Mk k - RInt (wk k) a b)).
  { intros a b Hab. pose proof (dom_tail _ _ _ _ a b Cf Cq Bq (GaussianExpectation.gint_correct f HI) Hq Hab) as H.
    rewrite RInt_scal_R in H by (apply exc, wk_cont). eapply Rle_trans; [exact H|]. right. ring. }
  split; [exact HI|]. split; [|exact T].
  pose proof (T 0 0 (Rle_refl 0)) as H. rewrite !(RInt_point (V := R_CompleteNormedModule)) in H.
  change zero with 0 in H. rewrite !Rminus_0_r in H. exact H.
Qed.

(** ** Slices and the closure of the class. *)

Lemma slice_cont : forall m F, ucont (S m) F -> forall z x0, continuous (fun x => F (vset z m x)) x0.
Proof.
  intros m F HU z x0. apply cont_eps. intros eps.
  destruct (box_exists m z) as [r0 [Hr0 Hb]].
  destruct (HU (r0 + Rabs x0 + 1) eps) as [d Hd].
  assert (Hd1 : 0 < Rmin d 1) by (apply Rmin_pos; [apply cond_pos | lra]).
  exists (mkposreal _ Hd1). intros x Hx. simpl in Hx.
  pose proof (Rmin_l d 1). pose proof (Rmin_r d 1). pose proof (Rabs_pos x0).
  apply Hd.
  - apply box_vset; [apply (box_mono m r0); [lra | exact Hb]|].
    pose proof (Rabs_triang_inv x x0). lra.
  - apply box_vset; [apply (box_mono m r0); [lra | exact Hb]|]. lra.
  - intros j Hj. destruct (Nat.eq_dec j m) as [->|Hne].
    + rewrite !vset_eq. lra.
    + rewrite !vset_neq by exact Hne. rewrite Rminus_eq_0, Rabs_R0. apply cond_pos.
Qed.

Lemma slice_bound : forall m F C k, (forall z, Rabs (F z) <= C * (1 + nsq (S m) z) ^ k) ->
  forall z x, Rabs (F (vset z m x)) <= (C * (1 + nsq m z) ^ k) * (1 + x ^ 2) ^ k.
Proof.
  intros m F C k H z x. pose proof (pgrowth_C _ _ _ _ H) as HC.
  eapply Rle_trans; [apply H|]. rewrite nsq_vset_S.
  replace (x * x) with (x ^ 2) by ring.
  rewrite Rmult_assoc. apply Rmult_le_compat_l; [exact HC|].
  rewrite <- Rplus_assoc. apply growth1; [apply nsq_nonneg | apply pow2_ge_0].
Qed.

Lemma slice_int : forall m F, fclass (S m) F -> forall z, gintegrable1 (fun x => F (vset z m x)).
Proof.
  intros m F [_ [HU [C [k HG]]]] z.
  exact (proj1 (wk_dom _ _ k (slice_cont m F HU z) (slice_bound m F C k HG z))).
Qed.

(** The partial expectation over the innermost coordinate. *)
Definition gslice (m : nat) (F : vec -> R) (z : vec) : R := gexp (fun x => F (vset z m x)).

Lemma gslice_first : forall m F, first_coords (S m) F -> first_coords m (gslice m F).
Proof.
  intros m F H z z' E. unfold gslice. f_equal. apply functional_extensionality. intros x.
  apply H. intros j Hj. destruct (Nat.eq_dec j m) as [->|Hne]; [rewrite !vset_eq; reflexivity|].
  rewrite !vset_neq by exact Hne. apply E. lia.
Qed.

Lemma gslice_growth : forall m F, fclass (S m) F -> pgrowth m (gslice m F).
Proof.
  intros m F [_ [HU [C [k HG]]]]. exists (C * Mk k / Z), k. intros z.
  destruct (wk_dom _ _ k (slice_cont m F HU z) (slice_bound m F C k HG z)) as [_ [B _]].
  unfold gslice, gexp. pose proof Z_pos.
  unfold Rdiv. rewrite Rabs_mult, (Rabs_pos_eq (/ Z)) by (left; apply Rinv_0_lt_compat; lra).
  replace (C * Mk k * / Z * (1 + nsq m z) ^ k) with (C * (1 + nsq m z) ^ k * Mk k * / Z) by ring.
  apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra | exact B].
Qed.

Lemma gslice_ucont : forall m F, fclass (S m) F -> ucont m (gslice m F).
Proof.
  intros m F [_ [HU [C [k HG]]]] r eps.
  pose proof (pgrowth_C _ _ _ _ HG) as HC. pose proof Z_pos as HZ.
  set (A := C * (1 + INR m * (r * r)) ^ k).
  assert (HA : 0 <= A) by (unfold A; apply Rmult_le_pos; [exact HC | apply pow_le; pose proof (pos_INR m); nra]).
  assert (Bw : forall w x, box m r w -> Rabs (F (vset w m x)) <= A * (1 + x ^ 2) ^ k).
  { intros w x Hw. eapply Rle_trans; [apply slice_bound, HG|]. unfold A.
    apply Rmult_le_compat_r; [apply pow_le; pose proof (pow2_ge_0 x); lra|].
    apply Rmult_le_compat_l; [exact HC|]. apply pow_incr. pose proof (nsq_nonneg m w). pose proof (nsq_box m r w Hw). lra. }
  (* a window with a small tail *)
  assert (Heta : 0 < eps * Z / (4 * (A + 1))) by (apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; [apply cond_pos | lra] | lra]).
  destruct (fp_pick _ (isg_lim (wk k) (Mk k) (wk_cont k) (wk_is k) _ (locally_ball (Mk k) (mkposreal _ Heta))))
    as [a [b [Hab Hw]]].
  simpl in Hw. unfold ball in Hw; simpl in Hw; unfold AbsRing_ball, abs, minus, plus, opp in Hw; simpl in Hw.
  set (T := Mk k - RInt (wk k) a b).
  assert (HT : 0 <= T < eps * Z / (4 * (A + 1))).
  { unfold T. pose proof (RInt_le_gen (wk k) (Mk k) a b Hab (wk_nonneg k) (wk_cont k) (wk_is k)).
    apply Rabs_lt_between' in Hw. lra. }
  set (e := eps * Z / (2 * (b - a + 1))).
  assert (He : 0 < e) by (unfold e; apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; [apply cond_pos | lra] | lra]).
  destruct (HU (Rabs r + Rabs a + Rabs b) (mkposreal e He)) as [d Hd]. exists d.
  intros w z Bw' Bz Nwz.
  pose proof (Rabs_pos a). pose proof (Rabs_pos b). pose proof (Rabs_pos r). pose proof (Rle_abs r).
  assert (Cw := slice_cont m F HU w). assert (Cz := slice_cont m F HU z).
  destruct (wk_dom _ _ k Cw (fun x => Bw w x Bw')) as [Iw _].
  destruct (wk_dom _ _ k Cz (fun x => Bw z x Bz)) as [Iz _].
  set (D := fun x => F (vset w m x) - F (vset z m x)).
  assert (CD : forall x, continuous D x) by (intros; apply (continuous_minus (fun x => F (vset w m x)) (fun x => F (vset z m x))); auto).
  assert (BD : forall x, Rabs (D x) <= (2 * A) * (1 + x ^ 2) ^ k).
  { intros x. unfold D. unfold Rminus. eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp.
    pose proof (Bw w x Bw'). pose proof (Bw z x Bz). lra. }
  destruct (wk_dom D (2 * A) k CD BD) as [ID [_ TD]].
  assert (ED : gint D = gint (fun x => F (vset w m x)) - gint (fun x => F (vset z m x))).
  { apply gint_unique.
    apply (isg_ext (fun x => 1 * (F (vset w m x) * gauss x) + (-1) * (F (vset z m x) * gauss x)) _
             (1 * gint (fun x => F (vset w m x)) + (-1) * gint (fun x => F (vset z m x))));
      [apply isg_lin; apply GaussianExpectation.gint_correct; assumption | intros; unfold D; ring | ring]. }
  assert (Mid : Rabs (RInt (fun x => D x * gauss x) a b) <= (b - a) * e).
  { apply abs_RInt_le_const; [exact Hab | apply exc; intros; apply (continuous_mult D gauss); [apply CD | apply gauss_cont]|].
    intros t Ht. rewrite Rabs_mult, (Rabs_pos_eq (gauss t)) by (left; apply gauss_pos).
    pose proof (proj1 (Rabs_le_between a (Rabs a)) (Rle_refl _)).
    pose proof (proj1 (Rabs_le_between b (Rabs b)) (Rle_refl _)).
    pose proof (gauss_le_1 t). pose proof (gauss_pos t).
    assert (Dt : Rabs (D t) < e).
    { unfold D. apply (Hd (vset w m t) (vset z m t)).
      - apply box_vset; [apply (box_mono m r); [lra | exact Bw']|].
        apply Rabs_le_between. lra.
      - apply box_vset; [apply (box_mono m r); [lra | exact Bz]|]. apply Rabs_le_between. lra.
      - apply near_vset, Nwz. }
    pose proof (Rabs_pos (D t)). nra. }
  pose proof (TD a b Hab) as TDab. fold T in TDab.
  unfold gslice, gexp.
  replace (gint (fun x => F (vset w m x)) / Z - gint (fun x => F (vset z m x)) / Z) with (gint D / Z)
    by (rewrite ED; field; lra).
  unfold Rdiv. rewrite Rabs_mult, (Rabs_pos_eq (/ Z)) by (left; apply Rinv_0_lt_compat; lra).
  apply (Rmult_lt_reg_r Z); [lra|]. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra.
  assert (Tot : Rabs (gint D) <= 2 * A * T + (b - a) * e).
  { replace (gint D) with ((gint D - RInt (fun x => D x * gauss x) a b) + RInt (fun x => D x * gauss x) a b) by ring.
    eapply Rle_trans; [apply Rabs_triang|]. lra. }
  assert (E1 : 2 * (A + 1) * (eps * Z / (4 * (A + 1))) = eps * Z / 2) by (field; lra).
  assert (E2 : (b - a + 1) * e = eps * Z / 2) by (unfold e; field; lra).
  assert (Q1 : 2 * A * T < eps * Z / 2) by nra.
  assert (Q2 : (b - a) * e < eps * Z / 2) by nra.
  lra.
Qed.

(** Integrating out the innermost coordinate keeps the class. *)
Theorem fclass_closure : forall m F, fclass (S m) F -> fclass m (gslice m F).
Proof.
  intros m F HF. split; [apply gslice_first, (proj1 HF)|]. split; [apply gslice_ucont, HF | apply gslice_growth, HF].
Qed.

(** The class is contained in [gclass n] of the Dirichlet theorems: every
    stage of the iterated integral is a continuous, Gaussian-integrable
    function of the integrated coordinate, and what is left after the [n]
    integrals is a constant. *)
Theorem fclass_gclass : forall n F, fclass n F -> gclass n F.
Proof.
  induction n as [|m IH]; intros F HF.
  - simpl. intros t. apply (proj1 HF). intros j Hj. lia.
  - split.
    + intros z. split; [intros x; apply (slice_cont m F (proj1 (proj2 HF))) | apply slice_int, HF].
    + apply IH, (fclass_closure m F HF).
Qed.

Lemma fclass_gintegrable : forall n F, fclass n F -> gintegrable n F.
Proof.
  induction n as [|m IH]; intros F HF; [exact I|].
  split; [intros z; apply slice_int, HF | apply IH, (fclass_closure m F HF)].
Qed.

(** ** Relabelled coordinates stay in the class. *)

Lemma sq_le_nsq : forall n z i, (i < n)%nat -> z i * z i <= nsq n z.
Proof.
  induction n as [|m IH]; intros z i Hi; [lia|]. rewrite nsq_S.
  destruct (Nat.eq_dec i m) as [->|Hne]; [pose proof (nsq_nonneg m z); lra|].
  pose proof (IH z i ltac:(lia)). pose proof (Rle_0_sqr (z m)). unfold Rsqr in *. lra.
Qed.

Lemma nsq_vperm_le : forall n sigma z, (forall j, (j < n)%nat -> (sigma j < n)%nat) ->
  nsq n (vperm sigma z) <= INR n * nsq n z.
Proof.
  intros n sigma z Hs. unfold nsq at 1, dot. rewrite <- fsum_const. apply fsum_le.
  intros j Hj. unfold vperm. apply sq_le_nsq, Hs, Hj.
Qed.

Lemma fclass_vperm : forall n sigma F, (forall j, (j < n)%nat -> (sigma j < n)%nat) ->
  fclass n F -> fclass n (fun z => F (vperm sigma z)).
Proof.
  intros n sigma F Hs [H1 [H2 [C [k H3]]]]. split; [|split].
  - intros z z' E. apply H1. intros j Hj. unfold vperm. apply E, Hs, Hj.
  - intros r eps. destruct (H2 r eps) as [d Hd]. exists d. intros w z Bw Bz Nwz.
    apply Hd; intros j Hj; unfold vperm; [apply Bw | apply Bz | apply Nwz]; apply Hs, Hj.
  - exists (C * (INR n + 1) ^ k), k. intros z. pose proof (pgrowth_C _ _ _ _ H3) as HC.
    eapply Rle_trans; [apply H3|]. rewrite Rmult_assoc. apply Rmult_le_compat_l; [exact HC|].
    rewrite <- Rpow_mult_distr. apply pow_incr. pose proof (nsq_vperm_le n sigma z Hs).
    pose proof (nsq_nonneg n z). pose proof (nsq_nonneg n (vperm sigma z)). pose proof (pos_INR n). nra.
Qed.

(** ** Exchanging two adjacent coordinates. *)

Lemma near_vset2 : forall m (d : posreal) w z x x', near m d w z -> Rabs (x - x') < d ->
  near (S m) d (vset w m x) (vset z m x').
Proof.
  intros m d w z x x' H Hx j Hj. destruct (Nat.eq_dec j m) as [->|Hne].
  - rewrite !vset_eq. exact Hx.
  - rewrite !vset_neq by exact Hne. apply H. lia.
Qed.

Lemma near_refl : forall n (d : posreal) z, near n d z z.
Proof. intros n d z j _. rewrite Rminus_eq_0, Rabs_R0. apply cond_pos. Qed.

Lemma fclass_2d_cont : forall m F, fclass (S (S m)) F -> forall z x0 y0,
  continuity_2d_pt (fun x y => F (vset (vset z m x) (S m) y)) x0 y0.
Proof.
  intros m F [_ [HU _]] z x0 y0 eps.
  destruct (box_exists m z) as [r0 [Hr0 Hb]].
  destruct (HU (r0 + Rabs x0 + Rabs y0 + 1) eps) as [d Hd].
  assert (Hd1 : 0 < Rmin d 1) by (apply Rmin_pos; [apply cond_pos | lra]).
  exists (mkposreal _ Hd1). intros u v Hu Hv. simpl in Hu, Hv.
  pose proof (Rmin_l d 1). pose proof (Rmin_r d 1). pose proof (Rabs_pos x0). pose proof (Rabs_pos y0).
  pose proof (Rabs_triang_inv u x0). pose proof (Rabs_triang_inv v y0).
  apply Hd; repeat apply box_vset; try (apply (box_mono m r0); [lra | exact Hb]); try lra.
  apply near_vset2; [apply near_vset2; [apply near_refl|]|]; lra.
Qed.

Lemma fclass_2d_growth : forall m F, fclass (S (S m)) F -> forall z,
  poly_growth2 (fun x y => F (vset (vset z m x) (S m) y)).
Proof.
  intros m F [_ [_ [C [k H]]]] z. exists (C * (1 + nsq m z) ^ k), k. intros x y.
  pose proof (pgrowth_C _ _ _ _ H) as HC.
  eapply Rle_trans; [apply H|]. rewrite nsq_vset_S, nsq_vset_S.
  rewrite Rmult_assoc. apply Rmult_le_compat_l; [exact HC|].
  replace (1 + (nsq m z + x * x + y * y)) with (1 + nsq m z + (x ^ 2 + y ^ 2)) by ring.
  replace (1 + x ^ 2 + y ^ 2) with (1 + (x ^ 2 + y ^ 2)) by ring.
  apply growth1; [apply nsq_nonneg | pose proof (pow2_ge_0 x); pose proof (pow2_ge_0 y); lra].
Qed.

Lemma vperm_swap_vset2 : forall m z x y,
  vperm (swap m (S m)) (vset (vset z m x) (S m) y) = vset (vset z m y) (S m) x.
Proof.
  intros m z x y. apply functional_extensionality. intros j. unfold vperm.
  destruct (Nat.eq_dec j m) as [->|H1].
  - rewrite swap_k, vset_eq. rewrite vset_neq by lia. rewrite vset_eq. reflexivity.
  - destruct (Nat.eq_dec j (S m)) as [->|H2].
    + rewrite swap_m, vset_eq. rewrite vset_neq by lia. rewrite vset_eq. reflexivity.
    + rewrite swap_other by assumption. rewrite !vset_neq by assumption. reflexivity.
Qed.

(** The two innermost coordinates exchanged: Fubini in two variables. *)
Lemma gexpn_swap_inner : forall m F, fclass (S (S m)) F ->
  gexpn (S (S m)) (fun z => F (vperm (swap m (S m)) z)) = gexpn (S (S m)) F.
Proof.
  intros m F HF. cbn [gexpn]. f_equal. apply functional_extensionality. intros z.
  transitivity (gexp (fun x => gexp (fun y => F (vset (vset z m y) (S m) x)))).
  - f_equal. apply functional_extensionality. intros x. f_equal. apply functional_extensionality. intros y.
    rewrite vperm_swap_vset2. reflexivity.
  - symmetry. exact (proj2 (proj2 (proj2 (proj2 (gexp_fubini (fun x y => F (vset (vset z m x) (S m) y))
                       (fclass_2d_cont m F HF z) (fclass_2d_growth m F HF z)))))).
Qed.

Lemma vperm_swap_vset : forall m j z x, (S j < m)%nat ->
  vperm (swap j (S j)) (vset z m x) = vset (vperm (swap j (S j)) z) m x.
Proof.
  intros m j z x Hj. apply functional_extensionality. intros i. unfold vperm.
  destruct (Nat.eq_dec i m) as [->|Him].
  - rewrite (swap_other j (S j) m) by lia. rewrite !vset_eq. reflexivity.
  - rewrite (vset_neq (fun k => z (swap j (S j) k)) m x i Him).
    destruct (Nat.eq_dec i j) as [->|Hij]; [rewrite swap_k; apply vset_neq; lia|].
    destruct (Nat.eq_dec i (S j)) as [->|Hisj]; [rewrite swap_m; apply vset_neq; lia|].
    rewrite swap_other by assumption. apply vset_neq, Him.
Qed.

(** Any two adjacent coordinates exchanged. *)
Lemma gexpn_swap_adj : forall n j F, (S j < n)%nat -> fclass n F ->
  gexpn n (fun z => F (vperm (swap j (S j)) z)) = gexpn n F.
Proof.
  induction n as [|m IH]; intros j F Hj HF; [lia|].
  destruct (Nat.eq_dec (S j) m) as [E|Hne].
  - subst m. apply gexpn_swap_inner, HF.
  - cbn [gexpn].
    transitivity (gexpn m (fun z => gslice m F (vperm (swap j (S j)) z))).
    + f_equal. apply functional_extensionality. intros z. unfold gslice. f_equal.
      apply functional_extensionality. intros x. rewrite vperm_swap_vset by lia. reflexivity.
    + rewrite (IH j (gslice m F)); [reflexivity | lia | apply fclass_closure, HF].
Qed.

(** ** Rotations of the coordinates, products of adjacent transpositions.

    [rotn d k] sends [k] to [k + d] and [i] to [i - 1] for [k < i <= k + d],
    and fixes every other [i]. *)
Fixpoint rotn (d k : nat) : nat -> nat :=
  match d with
  | O => fun i => i
  | S d' => fun i => rotn d' (S k) (swap k (S k) i)
  end.

Lemma rotn_spec : forall d k i,
  ((i < k)%nat -> rotn d k i = i) /\ (i = k -> rotn d k i = (k + d)%nat) /\
  ((k < i <= k + d)%nat -> rotn d k i = (i - 1)%nat) /\ ((k + d < i)%nat -> rotn d k i = i).
Proof.
  induction d as [|d IH]; intros k i.
  - cbn [rotn]. repeat split; intros; lia.
  - cbn [rotn]. destruct (IH (S k) (swap k (S k) i)) as [A [B [C D]]].
    destruct (Nat.eq_dec i k) as [E|Hik]; [|destruct (Nat.eq_dec i (S k)) as [E'|Hisk]].
    + subst i. rewrite swap_k in A, B, C, D |- *.
      repeat split; intros; first [lia | rewrite A by lia; lia | rewrite B by lia; lia | rewrite C by lia; lia | rewrite D by lia; lia].
    + subst i. rewrite swap_m in A, B, C, D |- *.
      repeat split; intros; first [lia | rewrite A by lia; lia | rewrite B by lia; lia | rewrite C by lia; lia | rewrite D by lia; lia].
    + rewrite swap_other in A, B, C, D |- * by assumption.
      repeat split; intros; first [lia | rewrite A by lia; lia | rewrite B by lia; lia | rewrite C by lia; lia | rewrite D by lia; lia].
Qed.

Lemma rotn_lt : forall d k n i, (k + d < n)%nat -> (i < n)%nat -> (rotn d k i < n)%nat.
Proof.
  intros d k n i H Hi. destruct (rotn_spec d k i) as [A [B [C D]]].
  destruct (Nat.lt_ge_cases i k); [rewrite A; lia|].
  destruct (Nat.eq_dec i k); [rewrite B; lia|].
  destruct (Nat.le_gt_cases i (k + d)); [rewrite C; lia | rewrite D; lia].
Qed.

Lemma rotn_val : forall d k i, rotn d k i =
  (if Nat.ltb i k then i else if Nat.eqb i k then k + d else if Nat.leb i (k + d) then i - 1 else i)%nat.
Proof.
  intros d k i. destruct (rotn_spec d k i) as [A [B [C D]]].
  destruct (Nat.ltb_spec i k); [apply A; lia|]. destruct (Nat.eqb_spec i k); [apply B; lia|].
  destruct (Nat.leb_spec i (k + d)); [apply C; lia | apply D; lia].
Qed.

Lemma rotn_inj : forall d k i j, rotn d k i = rotn d k j -> i = j.
Proof.
  intros d k i j E. rewrite !rotn_val in E.
  destruct (Nat.ltb_spec i k), (Nat.eqb_spec i k), (Nat.leb_spec i (k + d)),
           (Nat.ltb_spec j k), (Nat.eqb_spec j k), (Nat.leb_spec j (k + d)); lia.
Qed.

Lemma gexpn_rot : forall d k n H, (k + d < n)%nat -> fclass n H ->
  gexpn n (fun z => H (vperm (rotn d k) z)) = gexpn n H.
Proof.
  induction d as [|d IH]; intros k n H Hkd HH; [reflexivity|].
  cbn [rotn].
  change (fun z => H (vperm (fun i => rotn d (S k) (swap k (S k) i)) z)) with
         (fun z => H (vperm (swap k (S k)) (vperm (rotn d (S k)) z))).
  rewrite (IH (S k) n (fun w => H (vperm (swap k (S k)) w))); [| lia |].
  - apply gexpn_swap_adj; [lia | exact HH].
  - apply fclass_vperm; [|exact HH]. intros j Hj. unfold swap.
    destruct (Nat.eq_dec j k); [lia|]. destruct (Nat.eq_dec j (S k)); lia.
Qed.

(** ** Every order of integration. *)

Definition inj_on (n : nat) (sigma : nat -> nat) : Prop :=
  (forall j, (j < n)%nat -> (sigma j < n)%nat) /\
  (forall i j, (i < n)%nat -> (j < n)%nat -> sigma i = sigma j -> i = j).

Lemma gexpn_inj_order : forall n F sigma, inj_on n sigma -> fclass n F ->
  gexpn n (fun z => F (vperm sigma z)) = gexpn n F.
Proof.
  induction n as [|m IH]; intros F sigma [Hs Hi] HF; [reflexivity|].
  set (k := sigma m). assert (Hk : (k <= m)%nat) by (pose proof (Hs m ltac:(lia)); unfold k; lia).
  set (d := (m - k)%nat). set (rho := fun i => rotn d k (sigma i)).
  rewrite <- (gexpn_rot d k (S m) (fun z => F (vperm sigma z)) ltac:(unfold d; lia) (fclass_vperm (S m) sigma F Hs HF)).
  change (fun z => F (vperm sigma (vperm (rotn d k) z))) with (fun z => F (vperm rho z)).
  assert (Hrm : rho m = m) by (unfold rho; rewrite (proj1 (proj2 (rotn_spec d k (sigma m)))) by reflexivity; unfold d, k; lia).
  assert (Hrl : forall j, (j < S m)%nat -> (rho j < S m)%nat) by (intros j Hj; apply rotn_lt; [unfold d; lia | apply Hs, Hj]).
  assert (Hri : forall i j, (i < S m)%nat -> (j < S m)%nat -> rho i = rho j -> i = j)
    by (intros i j Hi' Hj' E; apply Hi; [exact Hi' | exact Hj' | exact (rotn_inj d k _ _ E)]).
  assert (Hrn : forall j, (j < m)%nat -> rho j <> m).
  { intros j Hj E. rewrite <- Hrm in E. apply Hri in E; lia. }
  cbn [gexpn].
  transitivity (gexpn m (fun z => gslice m F (vperm rho z))).
  - f_equal. apply functional_extensionality. intros z. unfold gslice. f_equal.
    apply functional_extensionality. intros x. apply (proj1 HF). intros j Hj. unfold vperm.
    destruct (Nat.eq_dec j m) as [->|Hne]; [rewrite Hrm, !vset_eq; reflexivity|].
    rewrite (vset_neq _ m x j Hne). apply vset_neq, Hrn. lia.
  - rewrite (IH (gslice m F) rho); [reflexivity | split | apply fclass_closure, HF].
    + intros j Hj. pose proof (Hrl j ltac:(lia)). pose proof (Hrn j Hj). lia.
    + intros i j Hi' Hj' E. apply Hri; [lia | lia | exact E].
Qed.

(** The iterated Gaussian integral of an integrand of [fclass n] (continuous,
    of polynomial growth, of the first [n] coordinates) is the same in every
    order of integration, and every inner integral exists in that order. *)
Theorem gexpn_fclass_order : forall n F sigma tau, is_perm n sigma tau -> fclass n F ->
  gintegrable n (fun z => F (vperm sigma z)) /\ gexpn n (fun z => F (vperm sigma z)) = gexpn n F.
Proof.
  intros n F sigma tau Hp HF.
  assert (Hi : inj_on n sigma).
  { split; [intros j Hj; apply (Hp j Hj) | intros i j Hi Hj E].
    destruct (Hp i Hi) as [_ [_ [Ei _]]]. destruct (Hp j Hj) as [_ [_ [Ej _]]].
    rewrite <- Ei, <- Ej, E. reflexivity. }
  split; [apply fclass_gintegrable, fclass_vperm; [apply Hi | exact HF] | apply gexpn_inj_order; assumption].
Qed.

(** ** Polynomials are in the class. *)

Lemma fclass_ext : forall n F G, (forall z, F z = G z) -> fclass n F -> fclass n G.
Proof. intros n F G E H. replace G with F; [exact H | apply functional_extensionality, E]. Qed.

Lemma pgrowth_box : forall n F, pgrowth n F -> forall r, exists B, 0 <= B /\ forall z, box n r z -> Rabs (F z) <= B.
Proof.
  intros n F [C [k H]] r. pose proof (pgrowth_C _ _ _ _ H) as HC.
  exists (C * (1 + INR n * (r * r)) ^ k). split.
  - apply Rmult_le_pos; [exact HC | apply pow_le; pose proof (pos_INR n); nra].
  - intros z Hz. eapply Rle_trans; [apply H|]. apply Rmult_le_compat_l; [exact HC|].
    apply pow_incr. pose proof (nsq_nonneg n z). pose proof (nsq_box n r z Hz). lra.
Qed.

Lemma pow_ge_1 : forall x k, 1 <= x -> 1 <= x ^ k.
Proof. intros x k Hx. induction k as [|k IH]; simpl; nra. Qed.

Lemma pow_le_plus : forall x k k', 1 <= x -> x ^ k <= x ^ (k + k').
Proof. intros x k k' Hx. rewrite pow_add. pose proof (pow_ge_1 x k' Hx). pose proof (pow_ge_1 x k Hx). nra. Qed.

Lemma fclass_const : forall n c, fclass n (fun _ => c).
Proof.
  intros n c. split; [|split].
  - intros z z' _. reflexivity.
  - intros r eps. exists eps. intros. rewrite Rminus_eq_0, Rabs_R0. apply cond_pos.
  - exists (Rabs c), 0%nat. intros z. simpl. lra.
Qed.

Lemma fclass_coord : forall n j, (j < n)%nat -> fclass n (fun z => z j).
Proof.
  intros n j Hj. split; [|split].
  - intros z z' E. apply E, Hj.
  - intros r eps. exists eps. intros w z _ _ N. apply N, Hj.
  - exists 1, 1%nat. intros z. pose proof (sq_le_nsq n z j Hj). simpl.
    assert (Rabs (z j) <= 1 + z j * z j).
    { assert (E : z j * z j = Rabs (z j) * Rabs (z j)).
      { rewrite <- Rabs_mult. rewrite Rabs_pos_eq; [reflexivity | nra]. }
      rewrite E. pose proof (Rabs_pos (z j)). nra. }
    lra.
Qed.

Lemma fclass_plus : forall n F G, fclass n F -> fclass n G -> fclass n (fun z => F z + G z).
Proof.
  intros n F G [F1 [F2 [C1 [k1 F3]]]] [G1 [G2 [C2 [k2 G3]]]]. split; [|split].
  - intros z z' E. rewrite (F1 z z' E), (G1 z z' E). reflexivity.
  - intros r eps. assert (He : 0 < eps / 2) by (pose proof (cond_pos eps); lra).
    destruct (F2 r (mkposreal _ He)) as [d1 H1]. destruct (G2 r (mkposreal _ He)) as [d2 H2].
    assert (Hd : 0 < Rmin d1 d2) by (apply Rmin_pos; apply cond_pos).
    exists (mkposreal _ Hd). intros w z Bw Bz N.
    assert (N1 : near n d1 w z) by (intros j Hj; eapply Rlt_le_trans; [apply N, Hj | apply Rmin_l]).
    assert (N2 : near n d2 w z) by (intros j Hj; eapply Rlt_le_trans; [apply N, Hj | apply Rmin_r]).
    specialize (H1 w z Bw Bz N1). specialize (H2 w z Bw Bz N2). simpl in H1, H2.
    replace (F w + G w - (F z + G z)) with ((F w - F z) + (G w - G z)) by ring.
    eapply Rle_lt_trans; [apply Rabs_triang|]. lra.
  - exists (C1 + C2), (k1 + k2)%nat. intros z. pose proof (pgrowth_C _ _ _ _ F3). pose proof (pgrowth_C _ _ _ _ G3).
    assert (X : 1 <= 1 + nsq n z) by (pose proof (nsq_nonneg n z); lra).
    pose proof (pow_le_plus _ k1 k2 X). pose proof (pow_le_plus _ k2 k1 X).
    rewrite (Nat.add_comm k2 k1) in *.
    eapply Rle_trans; [apply Rabs_triang|]. pose proof (F3 z). pose proof (G3 z). nra.
Qed.

Lemma fclass_mult : forall n F G, fclass n F -> fclass n G -> fclass n (fun z => F z * G z).
Proof.
  intros n F G HF HG. destruct HF as [F1 [F2 F3]]. destruct HG as [G1 [G2 G3]]. split; [|split].
  - intros z z' E. rewrite (F1 z z' E), (G1 z z' E). reflexivity.
  - intros r eps. destruct (pgrowth_box n F F3 r) as [BF [HBF BF1]]. destruct (pgrowth_box n G G3 r) as [BG [HBG BG1]].
    assert (He1 : 0 < eps / (2 * (BG + 1))) by (apply Rdiv_lt_0_compat; [apply cond_pos | lra]).
    assert (He2 : 0 < eps / (2 * (BF + 1))) by (apply Rdiv_lt_0_compat; [apply cond_pos | lra]).
    destruct (F2 r (mkposreal _ He1)) as [d1 H1]. destruct (G2 r (mkposreal _ He2)) as [d2 H2].
    assert (Hd : 0 < Rmin d1 d2) by (apply Rmin_pos; apply cond_pos).
    exists (mkposreal _ Hd). intros w z Bw Bz N.
    assert (N1 : near n d1 w z) by (intros j Hj; eapply Rlt_le_trans; [apply N, Hj | apply Rmin_l]).
    assert (N2 : near n d2 w z) by (intros j Hj; eapply Rlt_le_trans; [apply N, Hj | apply Rmin_r]).
    specialize (H1 w z Bw Bz N1). specialize (H2 w z Bw Bz N2). simpl in H1, H2.
    pose proof (BF1 w Bw). pose proof (BG1 z Bz).
    replace (F w * G w - F z * G z) with (F w * (G w - G z) + G z * (F w - F z)) by ring.
    eapply Rle_lt_trans; [apply Rabs_triang|]. rewrite !Rabs_mult.
    assert (A1 : Rabs (F w) * Rabs (G w - G z) <= BF * (eps / (2 * (BF + 1)))).
    { apply Rmult_le_compat; [apply Rabs_pos | apply Rabs_pos | lra | lra]. }
    assert (A2 : Rabs (G z) * Rabs (F w - F z) <= BG * (eps / (2 * (BG + 1)))).
    { apply Rmult_le_compat; [apply Rabs_pos | apply Rabs_pos | lra | lra]. }
    assert (A3 : BF * (eps / (2 * (BF + 1))) < eps / 2).
    { replace (BF * (eps / (2 * (BF + 1)))) with (eps / 2 * (BF / (BF + 1))) by (field; lra).
      assert (BF / (BF + 1) < 1) by (apply (Rdiv_lt_1 BF (BF + 1)); lra). pose proof (cond_pos eps). nra. }
    assert (A4 : BG * (eps / (2 * (BG + 1))) < eps / 2).
    { replace (BG * (eps / (2 * (BG + 1)))) with (eps / 2 * (BG / (BG + 1))) by (field; lra).
      assert (BG / (BG + 1) < 1) by (apply (Rdiv_lt_1 BG (BG + 1)); lra). pose proof (cond_pos eps). nra. }
    lra.
  - destruct F3 as [C1 [k1 F3]]. destruct G3 as [C2 [k2 G3]]. exists (C1 * C2), (k1 + k2)%nat. intros z.
    rewrite Rabs_mult, pow_add. pose proof (F3 z). pose proof (G3 z).
    replace (C1 * C2 * ((1 + nsq n z) ^ k1 * (1 + nsq n z) ^ k2)) with ((C1 * (1 + nsq n z) ^ k1) * (C2 * (1 + nsq n z) ^ k2)) by ring.
    apply Rmult_le_compat; [apply Rabs_pos | apply Rabs_pos | lra | lra].
Qed.

Lemma fclass_poly1 : forall n j p, (j < n)%nat -> IsPoly p -> fclass n (fun z => p (z j)).
Proof.
  intros n j p Hj Hp. induction Hp as [c|f Hf IH|f h Hf IHf Hh IHh|f h Hf IH E].
  - apply fclass_const.
  - apply (fclass_mult n (fun z => z j) (fun z => f (z j))); [apply fclass_coord, Hj | exact IH].
  - apply (fclass_plus n (fun z => f (z j)) (fun z => h (z j))); assumption.
  - apply (fclass_ext n (fun z => f (z j))); [intros; apply E | exact IH].
Qed.

Lemma fclass_fsum : forall n N (F : nat -> vec -> R), (forall k, (k < N)%nat -> fclass n (F k)) ->
  fclass n (fun z => fsum N (fun k => F k z)).
Proof.
  intros n N F HF. induction N as [|N IH]; [exact (fclass_const n 0)|].
  apply (fclass_plus n (fun z => fsum N (fun k => F k z)) (F N)); [apply IH; intros; apply HF; lia | apply HF; lia].
Qed.

Lemma fclass_fprod : forall n m (F : nat -> vec -> R), (forall j, (j < m)%nat -> fclass n (F j)) ->
  fclass n (fun z => fprod m (fun j => F j z)).
Proof.
  intros n m F HF. induction m as [|m IH]; [exact (fclass_const n 1)|].
  apply (fclass_mult n (fun z => fprod m (fun j => F j z)) (F m)); [apply IH; intros; apply HF; lia | apply HF; lia].
Qed.

(** Every sum of products of one-variable polynomials of the first [n]
    coordinates ([HermiteN.sumprod], the integrands of [gexpn_sumprod] and of
    the Hermite model) is in [fclass n]. *)
Theorem sumprod_fclass : forall n N c p, (forall k j, IsPoly (p k j)) -> fclass n (sumprod n N c p).
Proof.
  intros n N c p Hp. unfold sumprod.
  apply (fclass_fsum n N (fun k z => c k * fprod n (fun j => p k j (z j)))). intros k _.
  apply (fclass_mult n (fun _ => c k) (fun z => fprod n (fun j => p k j (z j)))); [apply fclass_const|].
  apply (fclass_fprod n n (fun j z => p k j (z j))). intros j Hj. apply fclass_poly1; [exact Hj | apply Hp].
Qed.

(** For the Dirichlet theorems: an integrand of [fclass n] is in [gclass n]
    with its coordinates in every order, and its iterated Gaussian integral
    does not depend on the order. *)
Theorem fclass_order_gclass : forall n F sigma tau, is_perm n sigma tau -> fclass n F ->
  gclass n F /\ gclass n (fun z => F (vperm sigma z)) /\
  gexpn n (fun z => F (vperm sigma z)) = gexpn n F.
Proof.
  intros n F sigma tau Hp HF.
  assert (Hs : forall j, (j < n)%nat -> (sigma j < n)%nat) by (intros j Hj; apply (Hp j Hj)).
  split; [apply fclass_gclass, HF|]. split; [apply fclass_gclass, fclass_vperm; [exact Hs | exact HF]|].
  exact (proj2 (gexpn_fclass_order n F sigma tau Hp HF)).
Qed.
