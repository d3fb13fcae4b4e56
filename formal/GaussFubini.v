(** * Fubini for improper integrals over R^2 with a product bound, and for
      the Gaussian expectation of continuous functions of polynomial growth.

    - [dom_ex], [dom_tail]: a continuous function dominated by a continuous
      integrable [q] has an improper integral over R, and its integral over
      [a, b] is within [int q - int_a^b q] of it;
    - [fubini_dom]: for [h] continuous on R^2 with [|h x y| <= p x * p y],
      [p] continuous, nonnegative and integrable over R, both iterated
      improper integrals exist (every inner one too) and are equal: the
      integrals over the squares [a, b]^2 agree in either order
      ([Fubini.fubini_rect]), and each iterated integral is within
      [P (P - int_a^b p)] of them ([P = int p]);
    - [gexp_fubini]: for [f] continuous on R^2 with
      [|f x y| <= C (1 + x^2 + y^2)^k], the iterated Gaussian expectations
      [E_x E_y f] and [E_y E_x f] ([HermiteGauss.gexp]) exist at every
      stage and are equal (with [h x y = exp (- x^2 / 2) f x y exp (- y^2 / 2)]
      and [p x = K (1 + x^2)^k exp (- x^2 / 2)] in [fubini_dom]).
    No axiom. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Psatz FunctionalExtensionality.
From LejepaId Require Import Gaussian GaussianMoments HermiteGauss GaussianExpectation Fubini.
Open Scope R_scope.

Local Notation mI := (Rbar_locally m_infty).
Local Notation pI := (Rbar_locally p_infty).

(** ** One variable: domination. *)

Lemma exc : forall f : R -> R, (forall x, continuous f x) -> forall a b, ex_RInt f a b.
Proof. intros f Hf a b. apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros; apply Hf. Qed.

Lemma RInt_plus_R : forall (f g : R -> R) a b, ex_RInt f a b -> ex_RInt g a b ->
  RInt (fun x => f x + g x) a b = RInt f a b + RInt g a b.
Proof. intros f g a b Hf Hg. exact (RInt_plus (V := R_CompleteNormedModule) f g a b Hf Hg). Qed.

Lemma RInt_minus_R : forall (f g : R -> R) a b, ex_RInt f a b -> ex_RInt g a b ->
  RInt (fun x => f x - g x) a b = RInt f a b - RInt g a b.
Proof. intros f g a b Hf Hg. exact (RInt_minus (V := R_CompleteNormedModule) f g a b Hf Hg). Qed.

Lemma RInt_scal_R : forall (f : R -> R) c a b, ex_RInt f a b ->
  RInt (fun x => c * f x) a b = c * RInt f a b.
Proof. intros f c a b Hf. exact (RInt_scal (V := R_CompleteNormedModule) f a b c Hf). Qed.

Lemma RInt_abs_le : forall (f q : R -> R) a b, a <= b -> ex_RInt f a b -> ex_RInt q a b ->
  (forall x, Rabs (f x) <= q x) -> Rabs (RInt f a b) <= RInt q a b.
Proof.
  intros f q a b Hab Hf Hq Hb.
  exact (norm_RInt_le (V := R_CompleteNormedModule) f q a b _ _ Hab (fun x _ => Hb x)
           (RInt_correct f a b Hf) (RInt_correct q a b Hq)).
Qed.

(** The improper integral as the limit of the proper ones. *)
Lemma isg_lim : forall (f : R -> R) l, (forall x, continuous f x) -> is_RInt_gen f mI pI l ->
  filterlim (fun ab => RInt f (fst ab) (snd ab)) (filter_prod mI pI) (locally l).
Proof.
  intros f l Hf Hl P HP. specialize (Hl P HP). unfold filtermapi, filtermap in Hl |- *.
  revert Hl. apply filter_imp. intros [a b] [y [Hy1 Hy2]]. simpl.
  now rewrite (is_RInt_unique _ a b y Hy1).
Qed.

(** A property of the pairs [(a, b)] that holds eventually holds for some
    [a <= b]. *)
Lemma fp_pick : forall (Pr : R * R -> Prop), filter_prod mI pI Pr -> exists a b, a <= b /\ Pr (a, b).
Proof.
  intros Pr [Q1 Q2 [M1 H1] [M2 H2] H]. exists (Rmin M1 M2 - 1), (Rmax M1 M2 + 1). split.
  - pose proof (Rmin_l M1 M2). pose proof (Rmax_l M1 M2). lra.
  - apply H; [apply H1 | apply H2]; [pose proof (Rmin_l M1 M2) | pose proof (Rmax_r M1 M2)]; lra.
Qed.

Lemma cont_shift : forall c L, continuous (fun y => y - c) L.
Proof. intros c L. apply (continuous_minus (fun y => y) (fun _ => c)); [apply continuous_id | apply continuous_const]. Qed.

Lemma cont_abs_shift : forall c L, continuous (fun y => Rabs (y - c)) L.
Proof.
  intros c L. apply cont_eps. intros eps. exists eps. intros y Hy.
  eapply Rle_lt_trans; [apply Rabs_triang_inv2|]. replace (y - c - (L - c)) with (y - L) by ring. exact Hy.
Qed.

Lemma RInt_le_gen : forall (q : R -> R) Q a b, a <= b -> (forall x, 0 <= q x) -> (forall x, continuous q x) ->
  is_RInt_gen q mI pI Q -> RInt q a b <= Q.
Proof. intros q Q a b Hab H0 Hc HQ. exact (RInt_gen_lower q Q a b (RInt q a b) Hab H0 Hc eq_refl HQ). Qed.

(** A continuous function dominated by a continuous integrable function is
    integrable over R. *)
Lemma dom_ex : forall (f q : R -> R) (Q : R), (forall x, continuous f x) -> (forall x, continuous q x) ->
  (forall x, Rabs (f x) <= q x) -> is_RInt_gen q mI pI Q -> ex_RInt_gen f mI pI.
Proof.
  intros f q Q Hf Hq Hb HQ.
  assert (Hq0 : forall x, 0 <= q x) by (intros x; eapply Rle_trans; [apply Rabs_pos | apply Hb]).
  assert (Hfq : forall x, continuous (fun t => f t + q t) x) by (intros; apply (continuous_plus f q); auto).
  assert (B : forall u v, u <= v -> 0 <= RInt (fun t => f t + q t) u v <= 2 * Q).
  { intros u v Huv. split.
    - apply RInt_ge_0; [exact Huv | apply exc, Hfq |]. intros t _. specialize (Hb t).
      apply Rabs_le_between in Hb. lra.
    - rewrite RInt_plus_R by (apply exc; assumption).
      assert (RInt f u v <= RInt q u v).
      { apply RInt_le; [exact Huv | apply exc, Hf | apply exc, Hq |]. intros t _. specialize (Hb t).
        apply Rabs_le_between in Hb. lra. }
      pose proof (RInt_le_gen q Q u v Huv Hq0 Hq HQ). lra. }
  assert (E : ex_RInt_gen (fun t => f t + q t) mI pI).
  { apply (bounded_primitive_improper (fun t => f t + q t) 0 (2 * Q)); [exact Hfq | |].
    - intros x. specialize (Hb x). apply Rabs_le_between in Hb. lra.
    - intros x. destruct (Rle_or_lt 0 x) as [Hx|Hx].
      + rewrite Rabs_pos_eq by (apply B; lra). apply B; lra.
      + rewrite <- (opp_RInt_swap _ x 0) by (apply exc, Hfq). change (opp ?y) with (- y).
        rewrite Rabs_Ropp, Rabs_pos_eq by (apply B; lra). apply B; lra. }
  destruct E as [L HL]. exists (L - Q).
  apply (isg_ext (fun x => 1 * (f x + q x) + (-1) * q x) _ (1 * L + (-1) * Q));
    [apply isg_lin; assumption | intros; ring | ring].
Qed.

(** The integral over [a, b] of a dominated function is within the tail of
    the dominating integral. *)
Lemma dom_tail : forall (f q : R -> R) (L Q a b : R), (forall x, continuous f x) -> (forall x, continuous q x) ->
  (forall x, Rabs (f x) <= q x) -> is_RInt_gen f mI pI L -> is_RInt_gen q mI pI Q -> a <= b ->
  Rabs (L - RInt f a b) <= Q - RInt q a b.
Proof.
  intros f q L Q a b Hf Hq Hb HL HQ Hab.
  apply (filterlim_le (F := filter_prod mI pI) (fun ab => Rabs (RInt f (fst ab) (snd ab) - RInt f a b))
          (fun ab => RInt q (fst ab) (snd ab) - RInt q a b) (Rabs (L - RInt f a b)) (Q - RInt q a b)).
  - apply (filter_imp (fun ab => fst ab <= a /\ b <= snd ab)); [|apply bounds_eventually].
    intros [a' b'] [H1 H2]; simpl in H1, H2 |- *.
    assert (Ef := RInt_Chasles (V := R_CompleteNormedModule) f a' a b' (exc f Hf _ _) (exc f Hf _ _)).
    assert (Ef2 := RInt_Chasles (V := R_CompleteNormedModule) f a b b' (exc f Hf _ _) (exc f Hf _ _)).
    assert (Eq := RInt_Chasles (V := R_CompleteNormedModule) q a' a b' (exc q Hq _ _) (exc q Hq _ _)).
    assert (Eq2 := RInt_Chasles (V := R_CompleteNormedModule) q a b b' (exc q Hq _ _) (exc q Hq _ _)).
    change plus with Rplus in Ef, Ef2, Eq, Eq2. simpl in Ef, Ef2, Eq, Eq2.
    rewrite <- Ef, <- Ef2, <- Eq, <- Eq2.
    pose proof (RInt_abs_le f q a' a H1 (exc f Hf _ _) (exc q Hq _ _) Hb).
    pose proof (RInt_abs_le f q b b' H2 (exc f Hf _ _) (exc q Hq _ _) Hb).
    replace (RInt f a' a + (RInt f a b + RInt f b b') - RInt f a b) with (RInt f a' a + RInt f b b') by ring.
    eapply Rle_trans; [apply Rabs_triang|]. lra.
  - apply (filterlim_comp _ _ _ (fun ab => RInt f (fst ab) (snd ab)) (fun y => Rabs (y - RInt f a b)) _ (locally L));
      [apply isg_lim; assumption | apply cont_abs_shift].
  - apply (filterlim_comp _ _ _ (fun ab => RInt q (fst ab) (snd ab)) (fun y => y - RInt q a b) _ (locally Q));
      [apply isg_lim; assumption | apply cont_shift].
Qed.

(** ** Two variables: a product bound. *)

Section Dominated.
  Variables (h : R -> R -> R) (p : R -> R) (P : R).
  Hypothesis h_cont : forall x y, continuity_2d_pt h x y.
  Hypothesis p_cont : forall x, continuous p x.
  Hypothesis p_nonneg : forall x, 0 <= p x.
  Hypothesis h_bound : forall x y, Rabs (h x y) <= p x * p y.
  Hypothesis p_int : is_RInt_gen p mI pI P.

  Definition Fh (x : R) : R := RInt_gen (fun y => h x y) mI pI.

  Lemma p_scal : forall c, is_RInt_gen (fun y => c * p y) mI pI (c * P).
  Proof.
    intros c. apply (isg_ext (fun y => c * p y + 0 * p y) _ (c * P + 0 * P)); [apply isg_lin; exact p_int | intros; ring | ring].
  Qed.

  Lemma hx_cont : forall x y, continuous (fun y => h x y) y.
  Proof. intros x y. apply cont2d_2, h_cont. Qed.

  Lemma Fh_is : forall x, is_RInt_gen (fun y => h x y) mI pI (Fh x).
  Proof.
    intros x. apply (RInt_gen_correct (V := R_CompleteNormedModule)).
    apply (dom_ex _ (fun y => p x * p y) (p x * P) (hx_cont x)); [| intros; apply h_bound | apply p_scal].
    intros y. apply (continuous_mult (fun _ => p x) p); [apply continuous_const | apply p_cont].
  Qed.

  Lemma Fh_tail : forall x a b, a <= b ->
    Rabs (Fh x - RInt (fun y => h x y) a b) <= (P - RInt p a b) * p x.
  Proof.
    intros x a b Hab.
    pose proof (dom_tail (fun y => h x y) (fun y => p x * p y) (Fh x) (p x * P) a b (hx_cont x)) as H.
    rewrite RInt_scal_R in H by (apply exc, p_cont).
    replace ((P - RInt p a b) * p x) with (p x * P - p x * RInt p a b) by ring.
    apply H; [| intros; apply h_bound | apply Fh_is | apply p_scal | exact Hab].
    intros y. apply (continuous_mult (fun _ => p x) p); [apply continuous_const | apply p_cont].
  Qed.

  Lemma Fh_bound : forall x, Rabs (Fh x) <= P * p x.
  Proof.
    intros x. pose proof (Fh_tail x 0 0 (Rle_refl 0)) as H.
    rewrite !(RInt_point (V := R_CompleteNormedModule)) in H. change zero with 0 in H.
    rewrite Rminus_0_r in H. rewrite Rminus_0_r in H. exact H.
  Qed.

  Lemma P_nonneg : 0 <= P.
  Proof. pose proof (RInt_le_gen p P 0 0 (Rle_refl 0) p_nonneg p_cont p_int). rewrite (RInt_point (V := R_CompleteNormedModule)) in H. exact H. Qed.

  (** The partial integral [x => int h x y dy] is continuous. *)
  Lemma Fh_cont : forall x0, continuous Fh x0.
  Proof.
    intros x0. apply cont_eps. intros eps.
    set (M := p x0 + 1).
    assert (HM : 0 < M) by (unfold M; pose proof (p_nonneg x0); lra).
    (* p is at most M near x0 *)
    assert (Cp := proj2 (continuity_pt_filterlim p x0) (p_cont x0)).
    destruct (Cp 1 Rlt_0_1) as [d1 [Hd1 Hp1]]. simpl in Hp1.
    (* a window [a, b] with a small tail *)
    assert (He3 : 0 < eps / (3 * M)) by (apply Rdiv_lt_0_compat; [apply cond_pos | lra]).
    destruct (fp_pick _ (isg_lim p P p_cont p_int _ (locally_ball P (mkposreal _ He3)))) as [a [b [Hab Hw]]].
    simpl in Hw.
    set (T := P - RInt p a b).
    assert (HT : 0 <= T < eps / (3 * M)).
    { unfold T. pose proof (RInt_le_gen p P a b Hab p_nonneg p_cont p_int).
      unfold ball in Hw; simpl in Hw; unfold AbsRing_ball, abs, minus, plus, opp in Hw; simpl in Hw.
      apply Rabs_lt_between' in Hw. lra. }
    set (e := eps / (3 * (b - a + 1))).
    assert (He : 0 < e) by (unfold e; apply Rdiv_lt_0_compat; [apply cond_pos | lra]).
    destruct (uniform_continuity_2d_1d' h a b x0 (fun y _ => h_cont x0 y) (mkposreal e He)) as [d2 Hd2].
    simpl in Hd2.
    assert (Hd : 0 < Rmin d1 d2) by (apply Rmin_pos; [lra | apply cond_pos]).
    exists (mkposreal _ Hd). intros x Hx. simpl in Hx.
    assert (Hpx : p x <= M).
    { destruct (Req_dec x x0) as [->|Hne]; [unfold M; lra|].
      assert (Hl : R_dist (p x) (p x0) < 1).
      { apply Hp1. split; [split; [exact I | congruence] |]. unfold R_dist. pose proof (Rmin_l d1 d2). lra. }
      unfold R_dist in Hl. apply Rabs_lt_between' in Hl. unfold M. lra. }
    assert (Hu : forall t, a <= t <= b -> Rabs (h x t - h x0 t) <= e).
    { intros t Ht. apply Rlt_le. apply (Hd2 t x0 t x Ht); [| exact Ht | | rewrite Rminus_eq_0, Rabs_R0; apply cond_pos].
      - pose proof (cond_pos d2). lra.
      - apply Rabs_lt_between' in Hx. pose proof (Rmin_r d1 d2). lra. }
    assert (Hmid : Rabs (RInt (fun y => h x y) a b - RInt (fun y => h x0 y) a b) <= (b - a) * e).
    { rewrite <- RInt_minus_R by (apply exc, hx_cont).
      apply abs_RInt_le_const; [exact Hab | apply exc; intros; apply (continuous_minus (fun y => h x y) (fun y => h x0 y)); apply hx_cont|].
      exact Hu. }
    pose proof (Fh_tail x a b Hab) as T1. pose proof (Fh_tail x0 a b Hab) as T0. fold T in T1, T0.
    replace (Fh x - Fh x0) with ((Fh x - RInt (fun y => h x y) a b) +
                                 (RInt (fun y => h x y) a b - RInt (fun y => h x0 y) a b) -
                                 (Fh x0 - RInt (fun y => h x0 y) a b)) by ring.
    assert (Tri : forall u v w, Rabs (u + v - w) <= Rabs u + Rabs v + Rabs w).
    { intros u v w. unfold Rminus. eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp.
      pose proof (Rabs_triang u v). lra. }
    eapply Rle_lt_trans; [apply Tri|].
    assert (A1 : T * p x <= T * M) by (apply Rmult_le_compat_l; lra).
    assert (A0 : T * p x0 <= T * M) by (apply Rmult_le_compat_l; [lra | unfold M; lra]).
    assert (A2 : T * M < eps / 3).
    { replace (eps / 3) with (eps / (3 * M) * M) by (field; lra). apply Rmult_lt_compat_r; lra. }
    assert (A3 : (b - a) * e < eps / 3).
    { unfold e. replace ((b - a) * (eps / (3 * (b - a + 1)))) with (eps / 3 * ((b - a) / (b - a + 1))) by (field; lra).
      assert ((b - a) / (b - a + 1) < 1) by (apply (Rdiv_lt_1 (b - a) (b - a + 1)); lra).
      pose proof (cond_pos eps). nra. }
    lra.
  Qed.

  Lemma Fh_int : ex_RInt_gen Fh mI pI.
  Proof.
    apply (dom_ex Fh (fun x => P * p x) (P * P) Fh_cont); [| exact Fh_bound | apply p_scal].
    intros x. apply (continuous_mult (fun _ => P) p); [apply continuous_const | apply p_cont].
  Qed.

  (** The integral over the square [a, b]^2. *)
  Definition Sq (a b : R) : R := RInt (fun x => RInt (fun y => h x y) a b) a b.

  Lemma square_est : forall a b, a <= b -> Rabs (RInt Fh a b - Sq a b) <= P * (P - RInt p a b).
  Proof.
    intros a b Hab. unfold Sq.
    assert (Ci : forall x, continuous (fun x => RInt (fun y => h x y) a b) x) by (intros; apply param_cont, h_cont).
    rewrite <- RInt_minus_R by (apply exc; first [apply Fh_cont | apply Ci]).
    eapply Rle_trans.
    - apply (RInt_abs_le _ (fun x => (P - RInt p a b) * p x) a b Hab).
      + apply exc. intros x. apply (continuous_minus Fh (fun x => RInt (fun y => h x y) a b)); [apply Fh_cont | apply Ci].
      + apply exc. intros x. apply (continuous_mult (fun _ => P - RInt p a b) p); [apply continuous_const | apply p_cont].
      + intros x. apply Fh_tail, Hab.
    - rewrite RInt_scal_R by (apply exc, p_cont).
      pose proof (RInt_le_gen p P a b Hab p_nonneg p_cont p_int).
      pose proof (RInt_ge_0 p a b Hab (exc p p_cont a b) (fun x _ => p_nonneg x)).
      nra.
  Qed.
End Dominated.

Lemma cont_affine : forall al be L, continuous (fun y => al * y + be) L.
Proof. intros al be L. apply (ex_derive_continuous (fun y => al * y + be)). auto_derive. exact I. Qed.

(** Fubini for improper integrals over R^2 of a continuous function with a
    product bound [|h x y| <= p x * p y], [p] continuous, nonnegative and
    integrable over R: every inner integral exists, both iterated integrals
    exist, and they are equal. *)
Theorem fubini_dom : forall (h : R -> R -> R) (p : R -> R) (P : R),
  (forall x y, continuity_2d_pt h x y) -> (forall x, continuous p x) -> (forall x, 0 <= p x) ->
  (forall x y, Rabs (h x y) <= p x * p y) -> is_RInt_gen p mI pI P ->
  (forall x, ex_RInt_gen (fun y => h x y) mI pI) /\
  (forall y, ex_RInt_gen (fun x => h x y) mI pI) /\
  ex_RInt_gen (fun x => RInt_gen (fun y => h x y) mI pI) mI pI /\
  ex_RInt_gen (fun y => RInt_gen (fun x => h x y) mI pI) mI pI /\
  RInt_gen (fun x => RInt_gen (fun y => h x y) mI pI) mI pI =
  RInt_gen (fun y => RInt_gen (fun x => h x y) mI pI) mI pI.
Proof.
  intros h p P Hh Hp Hp0 Hb HP.
  set (h' := fun y x => h x y).
  assert (Hh' : forall x y, continuity_2d_pt h' x y) by (intros x y; apply (cont2d_swap h y x), Hh).
  assert (Hb' : forall x y, Rabs (h' x y) <= p x * p y) by (intros x y; unfold h'; rewrite Rmult_comm; apply Hb).
  assert (I1 : forall x, is_RInt_gen (fun y => h x y) mI pI (Fh h x)) by (intros; apply (Fh_is h p P); assumption).
  assert (I2 : forall y, is_RInt_gen (fun x => h' y x) mI pI (Fh h' y)) by (intros; apply (Fh_is h' p P); assumption).
  assert (E1 : ex_RInt_gen (Fh h) mI pI) by (apply (Fh_int h p P); assumption).
  assert (E2 : ex_RInt_gen (Fh h') mI pI) by (apply (Fh_int h' p P); assumption).
  split; [intros x; exists (Fh h x); apply I1|].
  split; [intros y; exists (Fh h' y); apply I2|].
  split; [exact E1|]. split; [exact E2|].
  change (RInt_gen (Fh h) mI pI = RInt_gen (Fh h') mI pI).
  set (A := RInt_gen (Fh h) mI pI). set (B := RInt_gen (Fh h') mI pI).
  assert (C1 : forall x, continuous (Fh h) x) by (intros; apply (Fh_cont h p P); assumption).
  assert (C2 : forall x, continuous (Fh h') x) by (intros; apply (Fh_cont h' p P); assumption).
  set (D := fun x => Fh h x - Fh h' x).
  assert (CD : forall x, continuous D x) by (intros; apply (continuous_minus (Fh h) (Fh h')); auto).
  assert (ID : is_RInt_gen D mI pI (A - B)).
  { apply (isg_ext (fun x => 1 * Fh h x + (-1) * Fh h' x) _ (1 * A + (-1) * B)); [| intros; unfold D; ring | ring].
    apply isg_lin; apply (RInt_gen_correct (V := R_CompleteNormedModule)); assumption. }
  assert (L : Rabs (A - B - 0) <= (-2 * P) * P + 2 * P * P).
  { apply (filterlim_le (F := filter_prod mI pI) (fun ab => Rabs (RInt D (fst ab) (snd ab) - 0))
            (fun ab => (-2 * P) * RInt p (fst ab) (snd ab) + 2 * P * P) (Rabs (A - B - 0)) ((-2 * P) * P + 2 * P * P)).
    - apply (filter_imp (fun ab => fst ab <= 0 /\ 0 <= snd ab)); [|apply bounds_eventually].
      intros [a b] [Ha Hb0]; simpl in Ha, Hb0 |- *. assert (Hab : a <= b) by lra.
      unfold D. rewrite RInt_minus_R by (apply exc; first [apply C1 | apply C2]).
      pose proof (square_est h p P Hh Hp Hp0 Hb HP a b Hab) as S1.
      pose proof (square_est h' p P Hh' Hp Hp0 Hb' HP a b Hab) as S2.
      assert (ES : Sq h' a b = Sq h a b) by (unfold Sq, h'; symmetry; apply fubini_rect, Hh).
      rewrite ES in S2. rewrite Rminus_0_r.
      replace (RInt (Fh h) a b - RInt (Fh h') a b) with ((RInt (Fh h) a b - Sq h a b) - (RInt (Fh h') a b - Sq h a b)) by ring.
      assert (Tm : forall u v, Rabs (u - v) <= Rabs u + Rabs v)
        by (intros u v; unfold Rminus; eapply Rle_trans; [apply Rabs_triang | rewrite Rabs_Ropp; lra]).
      eapply Rle_trans; [apply Tm|]. lra.
    - apply (filterlim_comp _ _ _ (fun ab => RInt D (fst ab) (snd ab)) (fun y => Rabs (y - 0)) _ (locally (A - B)));
        [apply isg_lim; assumption | apply cont_abs_shift].
    - apply (filterlim_comp _ _ _ (fun ab => RInt p (fst ab) (snd ab)) (fun y => (-2 * P) * y + 2 * P * P) _ (locally P));
        [apply isg_lim; assumption | apply cont_affine]. }
  rewrite Rminus_0_r in L. replace ((-2 * P) * P + 2 * P * P) with 0 in L by ring.
  pose proof (Rabs_pos (A - B)). assert (Z0 : Rabs (A - B) = 0) by lra. apply Rabs_eq_0 in Z0. lra.
Qed.

(** ** The Gaussian expectation of a continuous function of polynomial growth. *)

(** [f] grows at most polynomially: [|f x y| <= C (1 + x^2 + y^2)^k]. *)
Definition poly_growth2 (f : R -> R -> R) : Prop :=
  exists C k, forall x y, Rabs (f x y) <= C * (1 + x ^ 2 + y ^ 2) ^ k.

Lemma poly_pow : forall f k, IsPoly f -> IsPoly (fun x => f x ^ k).
Proof.
  intros f k Hf. induction k as [|k IH].
  - apply (poly_ext (fun _ => 1)); [apply poly_const | intros; reflexivity].
  - apply (poly_ext (fun x => f x * f x ^ k)); [apply poly_mul; assumption | intros; reflexivity].
Qed.

Lemma poly_weight : forall K k, IsPoly (fun x => K * (1 + x ^ 2) ^ k).
Proof.
  intros K k. apply poly_scal, poly_pow.
  apply (poly_ext (fun x => 1 + x * (x * 1))); [|intros; ring].
  apply poly_plus; [apply poly_const | apply poly_xmul, poly_xmul, poly_const].
Qed.

Lemma ex_gen_scal_inv : forall (g : R -> R) c, c <> 0 -> ex_RInt_gen (fun y => c * g y) mI pI -> ex_RInt_gen g mI pI.
Proof.
  intros g c Hc [l H]. exists (/ c * l).
  apply (isg_ext (fun y => / c * (c * g y) + 0 * (c * g y)) _ (/ c * l + 0 * l)); [apply isg_lin; exact H | intros; field; exact Hc | ring].
Qed.

Lemma ex_gen_scal : forall (g : R -> R) c, ex_RInt_gen g mI pI -> ex_RInt_gen (fun y => c * g y) mI pI.
Proof.
  intros g c [l H]. exists (c * l).
  apply (isg_ext (fun y => c * g y + 0 * g y) _ (c * l + 0 * l)); [apply isg_lin; exact H | intros; ring | ring].
Qed.

Lemma RInt_gen_scal_R : forall (g : R -> R) c, ex_RInt_gen g mI pI ->
  RInt_gen (fun y => c * g y) mI pI = c * RInt_gen g mI pI.
Proof.
  intros g c Hg. apply (is_RInt_gen_unique (V := R_CompleteNormedModule)).
  apply (isg_ext (fun y => c * g y + 0 * g y) _ (c * RInt_gen g mI pI + 0 * RInt_gen g mI pI));
    [apply isg_lin; apply (RInt_gen_correct (V := R_CompleteNormedModule)), Hg | intros; ring | ring].
Qed.

Lemma gauss_2d_1 : forall x y, continuity_2d_pt (fun u v => gauss u) x y.
Proof.
  intros x y. apply (continuity_1d_2d_pt_comp gauss (fun u v => u)); [|apply continuity_2d_pt_id1].
  apply continuity_pt_filterlim, gauss_cont.
Qed.

Lemma gauss_2d_2 : forall x y, continuity_2d_pt (fun u v => gauss v) x y.
Proof.
  intros x y. apply (continuity_1d_2d_pt_comp gauss (fun u v => v)); [|apply continuity_2d_pt_id2].
  apply continuity_pt_filterlim, gauss_cont.
Qed.

Lemma growth_split : forall x y k, (1 + x ^ 2 + y ^ 2) ^ k <= (1 + x ^ 2) ^ k * (1 + y ^ 2) ^ k.
Proof.
  intros x y k. rewrite <- Rpow_mult_distr. apply pow_incr.
  pose proof (pow2_ge_0 x). pose proof (pow2_ge_0 y). split; [lra | nra].
Qed.

Section GaussFubini.
  Variable f : R -> R -> R.
  Hypothesis f_cont : forall x y, continuity_2d_pt f x y.
  Variables (C : R) (k : nat).
  Hypothesis f_growth : forall x y, Rabs (f x y) <= C * (1 + x ^ 2 + y ^ 2) ^ k.

  Let K := Rabs C + 1.
  Let p := fun x => K * (1 + x ^ 2) ^ k * gauss x.
  Let h := fun x y => gauss x * (f x y * gauss y).

  Lemma gf_p_cont : forall x, continuous p x.
  Proof. intros x. apply (continuous_mult (fun x => K * (1 + x ^ 2) ^ k) gauss); [apply poly_cont, poly_weight | apply gauss_cont]. Qed.

  Lemma gf_p_nonneg : forall x, 0 <= p x.
  Proof.
    intros x. unfold p, K. pose proof (Rabs_pos C). pose proof (gauss_pos x).
    assert (0 <= (1 + x ^ 2) ^ k) by (apply pow_le; pose proof (pow2_ge_0 x); lra).
    apply Rmult_le_pos; [apply Rmult_le_pos|]; lra.
  Qed.

  Lemma gf_p_int : ex_RInt_gen p mI pI.
  Proof.
    destruct (poly_int _ (poly_weight K k) 0) as [l H]. exists l.
    apply (isg_ext _ _ l l H); [intros; unfold p; ring | reflexivity].
  Qed.

  Lemma gf_h_cont : forall x y, continuity_2d_pt h x y.
  Proof.
    intros x y. unfold h. apply (continuity_2d_pt_mult (fun u v => gauss u)); [apply gauss_2d_1|].
    apply (continuity_2d_pt_mult f (fun u v => gauss v)); [apply f_cont | apply gauss_2d_2].
  Qed.

  Lemma gf_h_bound : forall x y, Rabs (h x y) <= p x * p y.
  Proof.
    intros x y. unfold h, p.
    pose proof (gauss_pos x) as Gx. pose proof (gauss_pos y) as Gy.
    rewrite Rabs_mult, Rabs_mult, (Rabs_pos_eq (gauss x)), (Rabs_pos_eq (gauss y)) by lra.
    pose proof (growth_split x y k) as S. pose proof (f_growth x y) as Fb.
    assert (X0 : 0 < (1 + x ^ 2 + y ^ 2) ^ k) by (apply pow_lt; pose proof (pow2_ge_0 x); pose proof (pow2_ge_0 y); lra).
    assert (Hc : C <= K * K) by (unfold K; pose proof (Rabs_pos C); pose proof (Rle_abs C); nra).
    assert (Y : Rabs (f x y) <= K * K * ((1 + x ^ 2) ^ k * (1 + y ^ 2) ^ k)).
    { pose proof (Rabs_pos (f x y)). unfold K in *. pose proof (Rabs_pos C). nra. }
    assert (E : K * (1 + x ^ 2) ^ k * gauss x * (K * (1 + y ^ 2) ^ k * gauss y) =
                gauss x * (K * K * ((1 + x ^ 2) ^ k * (1 + y ^ 2) ^ k) * gauss y)) by ring.
    rewrite E. apply Rmult_le_compat_l; [lra|]. apply Rmult_le_compat_r; lra.
  Qed.

  Let FD := fubini_dom h p (RInt_gen p mI pI) gf_h_cont gf_p_cont gf_p_nonneg gf_h_bound
              (RInt_gen_correct (V := R_CompleteNormedModule) _ gf_p_int).

  Lemma gf_slice1 : forall x, gintegrable1 (fun y => f x y).
  Proof.
    intros x. apply (ex_gen_scal_inv _ (gauss x)); [apply Rgt_not_eq, gauss_pos|]. exact (proj1 FD x).
  Qed.

  Lemma gf_slice2 : forall y, gintegrable1 (fun x => f x y).
  Proof.
    intros y. apply (ex_gen_scal_inv _ (gauss y)); [apply Rgt_not_eq, gauss_pos|].
    replace (fun x => gauss y * (f x y * gauss x)) with (fun x => h x y); [exact (proj1 (proj2 FD) y)|].
    apply functional_extensionality. intros x. unfold h. ring.
  Qed.

  Lemma gf_inner1 : (fun x => gexp (fun y => f x y) * gauss x) = (fun x => / Z * RInt_gen (fun y => h x y) mI pI).
  Proof.
    apply functional_extensionality. intros x. unfold h. rewrite RInt_gen_scal_R by apply gf_slice1.
    unfold gexp, gint, Rdiv. ring.
  Qed.

  Lemma gf_inner2 : (fun y => gexp (fun x => f x y) * gauss y) = (fun y => / Z * RInt_gen (fun x => h x y) mI pI).
  Proof.
    apply functional_extensionality. intros y.
    replace (fun x => h x y) with (fun x => gauss y * (f x y * gauss x)) by
      (apply functional_extensionality; intros x; unfold h; ring).
    rewrite RInt_gen_scal_R by apply gf_slice2. unfold gexp, gint, Rdiv. ring.
  Qed.

  Lemma gf_outer1 : gintegrable1 (fun x => gexp (fun y => f x y)).
  Proof. unfold gintegrable1. rewrite gf_inner1. apply ex_gen_scal, (proj1 (proj2 (proj2 FD))). Qed.

  Lemma gf_outer2 : gintegrable1 (fun y => gexp (fun x => f x y)).
  Proof. unfold gintegrable1. rewrite gf_inner2. apply ex_gen_scal, (proj1 (proj2 (proj2 (proj2 FD)))). Qed.

  Lemma gf_order : gexp (fun x => gexp (fun y => f x y)) = gexp (fun y => gexp (fun x => f x y)).
  Proof.
    unfold gexp at 1 3. unfold gint. rewrite gf_inner1, gf_inner2.
    rewrite !RInt_gen_scal_R by first [apply (proj1 (proj2 (proj2 FD))) | apply (proj1 (proj2 (proj2 (proj2 FD))))].
    rewrite (proj2 (proj2 (proj2 (proj2 FD)))). reflexivity.
  Qed.
End GaussFubini.

(** Fubini for the Gaussian expectation: for [f] continuous on R^2 of
    polynomial growth, [E_x E_y f x y] and [E_y E_x f x y] (iterated
    improper integrals against [exp (- x^2 / 2)] and [exp (- y^2 / 2)],
    normalized) exist at every stage and are equal. *)
Theorem gexp_fubini : forall f : R -> R -> R,
  (forall x y, continuity_2d_pt f x y) -> poly_growth2 f ->
  (forall x, gintegrable1 (fun y => f x y)) /\ (forall y, gintegrable1 (fun x => f x y)) /\
  gintegrable1 (fun x => gexp (fun y => f x y)) /\ gintegrable1 (fun y => gexp (fun x => f x y)) /\
  gexp (fun x => gexp (fun y => f x y)) = gexp (fun y => gexp (fun x => f x y)).
Proof.
  intros f Hf [C [k Hg]].
  exact (conj (gf_slice1 f Hf C k Hg) (conj (gf_slice2 f Hf C k Hg) (conj (gf_outer1 f Hf C k Hg)
           (conj (gf_outer2 f Hf C k Hg) (gf_order f Hf C k Hg))))).
Qed.
