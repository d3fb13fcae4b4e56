(** * The Gaussian integral as an expectation of the Dirichlet route.

    [Dirichlet.v] proves its theorems for every expectation functional
    ([is_expectation]: normalized, linear, monotone on a class closed under
    linear combinations), faithful where the equality case needs it.  Here the
    Gaussian integral is shown to be one:
    - [gexp_is_expectation]: in one variable, [E f = (1/Z) int f(x)
      exp(-x^2/2) dx] (Coquelicot improper integral) is an expectation on the
      functions integrable against the Gaussian;
    - [gexp_faithful]: a continuous nonnegative function with [E f = 0] is 0
      everywhere (a positive value gives a positive integral near it);
    - [gexpn_is_expectation], [gexpn_faithful]: in every dimension, the
      iterated integral [gexpn n] of [HermiteN] is an expectation, and
      faithful, on [gclass n]: the functions for which every stage of the
      iteration is a continuous, Gaussian-integrable function of the
      integrated coordinate and what is left after the [n] integrals does not
      depend on the other coordinates;
    - [dirichlet_identifiability_gauss] ([_gauss1] for [n = 1] on the line):
      [dirichlet_identifiability_n] with that expectation, so its expectation
      and faithfulness premises are discharged; the [_satisfiable] theorems
      show the identity meets all the hypotheses;
    - [gauss_log_volume_zero], [dirichlet_identifiability_gauss_density]:
      premise D3, [E ln det (J^T J) = 0], derived from the Jacobian density
      identity [det (J^T J) = exp (|h(z)|^2 - |z|^2)] (what [h] pushing
      [N(0, I)] to itself means pointwise, by the change of variables) and
      [E |h(z)|^2 = E |z|^2];
    - [gauss_whitened_energy], [dirichlet_identifiability_gauss_whitened]:
      that [E |h(z)|^2 = E |z|^2] derived from whitening (unit second moments
      [E [h_i h_i] = 1]), and the density theorem with it so replaced.
    Not done: the iterated integral is not shown to be the Lebesgue integral
    on R^n (no product measure; [GaussFubiniN] proves order independence on
    the subclass [fclass n] of [gclass n], continuous integrands of
    polynomial growth, and the rest of [gclass n] is stated in one order);
    membership of the Jacobian energies in [gclass n] is a hypothesis (part
    of [dirichlet_optimal]); the change-of-variables formula that turns
    "[h] pushes [N(0, I)] to itself" into the density identity is not
    formalized (the identity is the hypothesis); and the inverse's
    conditions remain hypotheses (no chain rule). *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Psatz FunctionalExtensionality.
From LejepaId Require Import Prelude GaussianMoments HermiteGauss HermiteModel HermiteN Dirichlet.
Open Scope R_scope.

Local Notation mI := (Rbar_locally m_infty).
Local Notation pI := (Rbar_locally p_infty).

Definition gintegrable1 (f : R -> R) : Prop := ex_RInt_gen (fun x => f x * gauss x) mI pI.

Lemma gint_correct : forall f, gintegrable1 f -> is_RInt_gen (fun x => f x * gauss x) mI pI (gint f).
Proof. intros f Hf. unfold gint. apply (RInt_gen_correct (V := R_CompleteNormedModule)). exact Hf. Qed.

Lemma bounds_eventually : forall a b,
  filter_prod mI pI (fun ab => fst ab <= a /\ b <= snd ab).
Proof.
  intros a b. exists (fun x => x <= a) (fun y => b <= y).
  - exists a. intros x Hx. lra.
  - exists b. intros y Hy. lra.
  - intros x y Hx Hy. simpl. split; assumption.
Qed.

Lemma gint_nonneg : forall f, gintegrable1 f -> (forall x, 0 <= f x) -> 0 <= gint f.
Proof.
  intros f Hf Hpos.
  assert (H0 : is_RInt_gen (fun _ : R => 0) mI pI 0).
  { apply (isg_ext (fun x => 0 * gauss x + 0 * gauss x) _ (0 * Z + 0 * Z)).
    - apply isg_lin; apply is_Z.
    - intros. ring.
    - ring. }
  pose proof (@RInt_gen_norm R_CompleteNormedModule mI pI _ _ (fun _ : R => 0) (fun x => f x * gauss x) 0 (gint f)) as H.
  change (norm 0) with (Rabs 0) in H. rewrite Rabs_R0 in H. apply H.
  - apply (filter_imp (fun ab => fst ab <= 0 /\ 0 <= snd ab)); [intros ab [H1 H2]; lra|].
    apply bounds_eventually.
  - apply filter_forall. intros ab x _. change (norm 0) with (Rabs 0). rewrite Rabs_R0.
    apply Rmult_le_pos; [apply Hpos | left; apply gauss_pos].
  - exact H0.
  - apply gint_correct, Hf.
Qed.

(** The one-dimensional Gaussian integral [E f = (1/Z) int f(x) exp(-x^2/2) dx]
    is an expectation in the sense of [Dirichlet.is_expectation], on the class
    of functions integrable against the Gaussian. *)
Theorem gexp_is_expectation : is_expectation R gintegrable1 gexp.
Proof.
  pose proof Z_pos as HZ. split; [|split].
  - intros c. assert (Hc : is_RInt_gen (fun x => c * gauss x) mI pI (c * Z)).
    { apply (isg_ext (fun x => c * gauss x + 0 * gauss x) _ (c * Z + 0 * Z)).
      - apply isg_lin; apply is_Z.
      - intros. ring.
      - ring. }
    split.
    + exists (c * Z). exact Hc.
    + unfold gexp. rewrite (gint_unique _ (c * Z) Hc). field. lra.
  - intros a b f g Hf Hg.
    assert (H : is_RInt_gen (fun x => (a * f x + b * g x) * gauss x) mI pI (a * gint f + b * gint g)).
    { apply (isg_ext (fun x => a * (f x * gauss x) + b * (g x * gauss x)) _ (a * gint f + b * gint g)).
      - apply isg_lin; apply gint_correct; assumption.
      - intros. ring.
      - reflexivity. }
    split.
    + exists (a * gint f + b * gint g). exact H.
    + unfold gexp. rewrite (gint_unique _ _ H). field. lra.
  - intros f g Hf Hg Hle.
    assert (Hd : gintegrable1 (fun x => g x - f x)).
    { exists (gint g - gint f).
      apply (isg_ext (fun x => 1 * (g x * gauss x) + (-1) * (f x * gauss x)) _ (1 * gint g + (-1) * gint f)).
      - apply isg_lin; apply gint_correct; assumption.
      - intros. ring.
      - ring. }
    pose proof (gint_nonneg _ Hd (fun x => ltac:(specialize (Hle x); lra))) as H.
    assert (He : gint (fun x => g x - f x) = gint g - gint f).
    { apply gint_unique.
      apply (isg_ext (fun x => 1 * (g x * gauss x) + (-1) * (f x * gauss x)) _ (1 * gint g + (-1) * gint f)).
      - apply isg_lin; apply gint_correct; assumption.
      - intros. ring.
      - ring. }
    unfold gexp. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat, HZ|]. lra.
Qed.

Lemma RInt_gen_lower : forall (h : R -> R) l c d m, c <= d ->
  (forall x, 0 <= h x) -> (forall x, continuous h x) ->
  RInt h c d = m -> is_RInt_gen h mI pI l -> m <= l.
Proof.
  intros h l c d m Hcd Hpos Hcont Hm Hl.
  assert (Hex : forall a b, ex_RInt h a b).
  { intros a b. apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros. apply Hcont. }
  apply (filterlim_le (F := filter_prod mI pI) (fun _ => m) (fun ab => RInt h (fst ab) (snd ab)) m l).
  - apply (filter_imp (fun ab => fst ab <= c /\ d <= snd ab)); [|apply bounds_eventually].
    intros [a b] [Ha Hb]. simpl in Ha, Hb |- *.
    rewrite <- (RInt_Chasles h a c b) by apply Hex.
    rewrite <- (RInt_Chasles h c d b) by apply Hex.
    pose proof (RInt_ge_0 h a c Ha (Hex a c) (fun x _ => Hpos x)) as H1.
    pose proof (RInt_ge_0 h d b Hb (Hex d b) (fun x _ => Hpos x)) as H2.
    rewrite Hm. simpl. unfold plus. simpl. lra.
  - apply filterlim_const.
  - intros P HP. specialize (Hl P HP). unfold filtermapi, filtermap in Hl |- *.
    revert Hl. apply filter_imp. intros [a b] [y [Hy1 Hy2]]. simpl.
    now rewrite (is_RInt_unique _ a b y Hy1).
Qed.

(** Faithful on continuous functions: a continuous nonnegative function with
    Gaussian expectation 0 vanishes everywhere. *)
Theorem gexp_faithful : forall f, (forall x, continuous f x) -> gintegrable1 f ->
  (forall x, 0 <= f x) -> gexp f = 0 -> forall x, f x = 0.
Proof.
  intros f Hc Hf Hpos H0 t.
  pose proof Z_pos as HZ.
  destruct (Rle_lt_or_eq_dec 0 (f t) (Hpos t)) as [Hlt|Heq]; [|lra].
  exfalso.
  set (h := fun x => f x * gauss x).
  assert (Hhc : forall x, continuous h x).
  { intros x. apply cont_mult; [apply Hc | apply gauss_cont]. }
  assert (Hht : 0 < h t) by (unfold h; apply Rmult_lt_0_compat; [lra | apply gauss_pos]).
  assert (Hhpos : forall x, 0 <= h x).
  { intros x. unfold h. apply Rmult_le_pos; [apply Hpos | left; apply gauss_pos]. }
  assert (He : 0 < h t / 2) by lra.
  destruct (Hhc t (ball (h t) (mkposreal _ He)) (locally_ball _ _)) as [del Hdel].
  assert (Hnear : forall x, t - del < x < t + del -> 0 < h x).
  { intros x Hx. assert (Hb : ball t del x).
    { change (Rabs (x - t) < del). apply Rabs_def1; lra. }
    specialize (Hdel x Hb). change (Rabs (h x - h t) < h t / 2) in Hdel.
    apply Rabs_def2 in Hdel. lra. }
  pose proof (cond_pos del) as Hd.
  assert (Hm : 0 < RInt h (t - del / 2) (t + del / 2)).
  { apply RInt_gt_0; [lra | |].
    - intros x Hx. apply Hnear. lra.
    - intros x _. apply Hhc. }
  assert (Hg : gint f = 0).
  { unfold gexp in H0. apply (Rmult_eq_reg_r (/ Z)); [|apply Rinv_neq_0_compat; lra].
    rewrite Rmult_0_l. exact H0. }
  pose proof (RInt_gen_lower h (gint f) (t - del / 2) (t + del / 2) _ ltac:(lra) Hhpos Hhc
                eq_refl (gint_correct f Hf)) as Hle.
  lra.
Qed.

(** ** The one-dimensional Dirichlet theorem with the Gaussian integral.

    [dirichlet_identifiability_n] takes its expectation as a premise, over the
    sample space [vec].  For [n = 1] the Gaussian integral is one: [gclass1]
    are the functions of a vector that depend on its first coordinate only,
    continuously, and are integrable against the Gaussian, and [gexp1] is
    their Gaussian expectation [(1/Z) int F(x) exp(-x^2/2) dx]; it is an
    expectation and faithful on that class, so both premises are discharged. *)
Definition line (x : R) : vec := fun _ => x.

Definition gclass1 (F : vec -> R) : Prop :=
  (forall t, F t = F (line (t 0%nat))) /\
  (forall x, continuous (fun y => F (line y)) x) /\
  gintegrable1 (fun x => F (line x)).

Definition gexp1 (F : vec -> R) : R := gexp (fun x => F (line x)).

Lemma cont_lin : forall (a b : R) (f g : R -> R) x, continuous f x -> continuous g x ->
  continuous (fun y => a * f y + b * g y) x.
Proof.
  intros a b f g x Hf Hg.
  apply (continuous_plus (fun y => a * f y) (fun y => b * g y));
    apply cont_mult; try apply continuous_const; assumption.
Qed.

Theorem gexp1_is_expectation : is_expectation vec gclass1 gexp1.
Proof.
  destruct gexp_is_expectation as [Hc [Hl Hm]]. split; [|split].
  - intros c. destruct (Hc c) as [HI HE]. split; [|exact HE].
    split; [reflexivity|]. split; [intros; apply continuous_const | exact HI].
  - intros a b F G [HF1 [HF2 HF3]] [HG1 [HG2 HG3]].
    destruct (Hl a b _ _ HF3 HG3) as [HI HE]. split; [|exact HE].
    split; [intros t; rewrite HF1, HG1; reflexivity|].
    split; [intros x; apply cont_lin; [apply HF2 | apply HG2] | exact HI].
  - intros F G [_ [_ HF]] [_ [_ HG]] Hle. apply Hm; [exact HF | exact HG | intros x; apply Hle].
Qed.

Theorem gexp1_faithful : forall F, gclass1 F -> (forall t, 0 <= F t) -> gexp1 F = 0 ->
  forall t, F t = 0.
Proof.
  intros F [H1 [H2 H3]] Hpos H0 t. rewrite H1.
  apply (gexp_faithful (fun x => F (line x))); [exact H2 | exact H3 | intros; apply Hpos | exact H0].
Qed.

(** [dirichlet_identifiability_n] for [n = 1] with the Gaussian integral as the
    expectation: if [h] and its inverse have Jacobian fields whose energies are
    continuous, Gaussian-integrable functions of the first coordinate with
    [E ln (J^T J) = 0] and [E tr (J^T J) = 1] under the Gaussian integral, and
    [h(0) = 0], then [h z = Q z] with [Q^T Q = 1] on the first coordinate. *)
Theorem dirichlet_identifiability_gauss1 :
  forall h J g Jg,
  has_jacobian 1 h J -> dirichlet_optimal 1 gclass1 gexp1 J ->
  has_jacobian 1 g Jg -> dirichlet_optimal 1 gclass1 gexp1 Jg ->
  (forall x, veq 1 (g (h x)) x) ->
  veq 1 (h (fun _ => 0)) (fun _ => 0) ->
  exists Q : mat,
    (forall i k, (i < 1)%nat -> (k < 1)%nat -> fsum 1 (fun j => Q j i * Q j k) = kron i k) /\
    forall z, veq 1 (h z) (mapply 1 Q z).
Proof.
  intros h J g Jg HJ Ho HJg Hog Hinv H0.
  apply (dirichlet_identifiability_n 1 gclass1 gexp1 h J g Jg); try assumption.
  - lia.
  - apply gexp1_is_expectation.
  - apply gexp1_faithful.
Qed.

(** Not vacuous: the identity of the line meets every hypothesis of
    [dirichlet_identifiability_gauss1] (its energies are constant, so in the
    class), with the Gaussian integral as the expectation. *)
Theorem dirichlet_identifiability_gauss1_satisfiable :
  exists (h : vec -> vec) (J : vec -> mat),
    has_jacobian 1 h J /\ dirichlet_optimal 1 gclass1 gexp1 J /\
    (forall x, veq 1 (h (h x)) x) /\ veq 1 (h (fun _ => 0)) (fun _ => 0).
Proof.
  destruct gexp1_is_expectation as [Hc _].
  assert (Hdet : det 1 (gram 1 kron) = 1).
  { rewrite det_gram_upper by (intros i j _ Hji; unfold kron; destruct (Nat.eq_dec i j); [lia | reflexivity]).
    rewrite (fprod_ext 1 _ (fun _ => 1)); [|intros i _; unfold kron; destruct (Nat.eq_dec i i); [ring | congruence]].
    simpl. ring. }
  assert (Hvol : log_volume 1 kron = 0) by (unfold log_volume; rewrite Hdet; apply ln_1).
  assert (Hen : dirichlet_energy 1 kron = INR 1).
  { unfold dirichlet_energy, mtrace. rewrite (fsum_ext 1 _ (fun _ => 1)); [rewrite fsum_const; ring|].
    intros i Hi. rewrite gram_kron by exact Hi. unfold kron. destruct (Nat.eq_dec i i); [reflexivity | congruence]. }
  exists (trunc 1), (fun _ => kron). split; [|split; [|split]].
  - intros x v i t. unfold trunc, mapply. destruct (Nat.ltb i 1) eqn:Hi.
    + apply Nat.ltb_lt in Hi.
      replace (fsum 1 (fun j => kron i j * v j)) with (v i)
        by (symmetry; apply fsum_kron; exact Hi).
      unfold vadd, vscal. auto_derive; [exact Logic.I|]. ring.
    + apply Nat.ltb_ge in Hi.
      replace (fsum 1 (fun j => kron i j * v j)) with 0.
      * auto_derive; [exact Logic.I|]. ring.
      * rewrite (fsum_ext 1 _ (fun _ => 0)); [rewrite fsum_const; ring|].
        intros j Hj. unfold kron. destruct (Nat.eq_dec i j); [lia | ring].
  - split; [|split; [|split; [|split; [|split]]]].
    + intros x. rewrite Hdet. lra.
    + rewrite Hvol. apply Hc.
    + rewrite Hen. apply Hc.
    + rewrite Hvol. apply Hc.
    + rewrite Hvol. apply Hc.
    + rewrite Hen. apply Hc.
  - intros x i Hi. unfold trunc. apply Nat.ltb_lt in Hi. rewrite Hi. reflexivity.
  - intros i Hi. unfold trunc. destruct (Nat.ltb i 1); reflexivity.
Qed.

(** ** Every dimension: the iterated Gaussian integral of [HermiteN].

    [gexpn n F = E_{z_0} ... E_{z_{n-1}} F] integrates the last of the first [n]
    coordinates first.  [gclass n] are the functions for which every stage is
    a continuous, Gaussian-integrable function of the integrated coordinate,
    and what is left after the [n] integrals does not depend on the other
    coordinates.  On that class the iterated integral is an expectation and
    faithful; continuity is asked of each one-variable slice only. *)
Fixpoint gclass (n : nat) (F : vec -> R) : Prop :=
  match n with
  | O => forall t, F t = F (fun _ => 0)
  | S m => (forall z, (forall x, continuous (fun y => F (vset z m y)) x) /\
                      gintegrable1 (fun x => F (vset z m x))) /\
           gclass m (fun z => gexp (fun x => F (vset z m x)))
  end.

Lemma gclass_ext : forall n F G, (forall t, F t = G t) -> gclass n F -> gclass n G.
Proof.
  intros n F G E. replace G with F; [auto|]. apply functional_extensionality, E.
Qed.

Lemma gexpn_ext : forall n F G, (forall t, F t = G t) -> gexpn n F = gexpn n G.
Proof.
  intros n F G E. replace G with F; [reflexivity|]. apply functional_extensionality, E.
Qed.

Theorem gexpn_is_expectation : forall n, is_expectation vec (gclass n) (gexpn n).
Proof.
  destruct gexp_is_expectation as [Hc1 [Hl1 Hm1]].
  induction n as [|m [Hc [Hl Hm]]].
  - split; [|split].
    + intros c. split; [simpl; intros; reflexivity | reflexivity].
    + intros a b F G HF HG. split; [intros t; simpl in HF, HG |- *; rewrite HF, HG; reflexivity|].
      reflexivity.
    + intros F G _ _ Hle. apply Hle.
  - split; [|split].
    + intros c. destruct (Hc1 c) as [HI HE]. split.
      * split; [intros z; split; [intros; apply continuous_const | exact HI]|].
        apply (gclass_ext m (fun _ => c)); [intros; symmetry; exact HE | apply Hc].
      * simpl. rewrite (gexpn_ext m _ (fun _ => c)) by (intros; exact HE). apply Hc.
    + intros a b F G [HF1 HF2] [HG1 HG2].
      assert (Hinner : forall z, gexp (fun x => a * F (vset z m x) + b * G (vset z m x)) =
                         a * gexp (fun x => F (vset z m x)) + b * gexp (fun x => G (vset z m x))).
      { intros z. apply (Hl1 a b); [apply HF1 | apply HG1]. }
      destruct (Hl a b _ _ HF2 HG2) as [HI HE]. split.
      * split.
        -- intros z. destruct (HF1 z) as [HFc HFi]. destruct (HG1 z) as [HGc HGi]. split.
           ++ intros x. apply cont_lin; [apply HFc | apply HGc].
           ++ apply (Hl1 a b); assumption.
        -- apply (gclass_ext m _ _ (fun z => eq_sym (Hinner z))). exact HI.
      * simpl. rewrite (gexpn_ext m _ _ Hinner). exact HE.
    + intros F G [HF1 HF2] [HG1 HG2] Hle. simpl. apply Hm; [exact HF2 | exact HG2|].
      intros z. apply Hm1; [apply HF1 | apply HG1 | intros x; apply Hle].
Qed.

Lemma vset_same : forall (t : vec) m, vset t m (t m) = t.
Proof.
  intros t m. apply functional_extensionality. intros j. unfold vset.
  destruct (Nat.eq_dec j m) as [->|]; reflexivity.
Qed.

Theorem gexpn_faithful : forall n F, gclass n F -> (forall t, 0 <= F t) -> gexpn n F = 0 ->
  forall t, F t = 0.
Proof.
  destruct gexp_is_expectation as [Hc1 [Hl1 Hm1]].
  induction n as [|m IH]; intros F HF Hpos H0 t.
  - simpl in HF, H0. rewrite HF. exact H0.
  - destruct HF as [HF1 HF2]. simpl in H0.
    assert (Hin : forall z, gexp (fun x => F (vset z m x)) = 0).
    { apply (IH _ HF2); [|exact H0].
      intros z. destruct (Hc1 0) as [H0I H0E]. rewrite <- H0E.
      apply Hm1; [exact H0I | apply HF1 | intros; apply Hpos]. }
    rewrite <- (vset_same t m).
    destruct (HF1 t) as [Hc Hi].
    apply (gexp_faithful (fun x => F (vset t m x))); [exact Hc | exact Hi | intros; apply Hpos | apply Hin].
Qed.

(** [dirichlet_identifiability_n] with the iterated Gaussian integral as its
    expectation, in every dimension: the expectation and faithfulness premises
    are discharged; the Jacobian energies of [h] and of its inverse must lie in
    [gclass n] (part of [dirichlet_optimal]). *)
Theorem dirichlet_identifiability_gauss :
  forall n h J g Jg, (0 < n)%nat ->
  has_jacobian n h J -> dirichlet_optimal n (gclass n) (gexpn n) J ->
  has_jacobian n g Jg -> dirichlet_optimal n (gclass n) (gexpn n) Jg ->
  (forall x, veq n (g (h x)) x) ->
  veq n (h (fun _ => 0)) (fun _ => 0) ->
  exists Q : mat,
    (forall i k, (i < n)%nat -> (k < n)%nat -> fsum n (fun j => Q j i * Q j k) = kron i k) /\
    forall z, veq n (h z) (mapply n Q z).
Proof.
  intros n h J g Jg Hn HJ Ho HJg Hog Hinv H0.
  apply (dirichlet_identifiability_n n (gclass n) (gexpn n) h J g Jg); try assumption.
  - apply gexpn_is_expectation.
  - apply gexpn_faithful.
Qed.

(** Not vacuous: for every [n > 0] the identity of R^n meets every hypothesis
    of [dirichlet_identifiability_gauss] (its energies are constant). *)
Theorem dirichlet_identifiability_gauss_satisfiable :
  forall n, (0 < n)%nat ->
  exists (h : vec -> vec) (J : vec -> mat),
    has_jacobian n h J /\ dirichlet_optimal n (gclass n) (gexpn n) J /\
    (forall x, veq n (h (h x)) x) /\ veq n (h (fun _ => 0)) (fun _ => 0).
Proof.
  intros n Hn. destruct (gexpn_is_expectation n) as [Hc _].
  destruct (kron_volume_energy n) as [Hdet [Hvol Hen]].
  exists (trunc n), (fun _ => kron). split; [|split; [|split]].
  - apply trunc_jacobian.
  - split; [|split; [|split; [|split; [|split]]]].
    + intros x. rewrite Hdet. lra.
    + rewrite Hvol. apply Hc.
    + rewrite Hen. apply Hc.
    + rewrite Hvol. apply Hc.
    + rewrite Hvol. apply Hc.
    + rewrite Hen. apply Hc.
  - intros x i Hi. unfold trunc. apply Nat.ltb_lt in Hi. rewrite Hi. reflexivity.
  - intros i Hi. unfold trunc. destruct (Nat.ltb i n); reflexivity.
Qed.

(** ** Premise D3 from the Jacobian form of Gaussian preservation.

    For a diffeomorphism [h] of R^n with Jacobian [J], the change-of-variables
    formula makes [h_# N(0, I) = N(0, I)] the pointwise identity
    [phi(h(z)) |det J(z)| = phi(z)] for the density
    [phi(z) = (2 pi)^(-n/2) exp(-|z|^2/2)]; squared, with
    [det (J^T J) = (det J)^2], it is [gauss_jacobian_density] below.  That
    link (the change of variables itself) is not formalized: the identity is
    the hypothesis.  From it and the push-forward tested on [|y|^2]
    ([E |h(z)|^2 = E |z|^2], which whitening also gives:
    [gauss_whitened_energy] below), premise D3 follows:
    [ln det (J^T J) = |h(z)|^2 - |z|^2], so its iterated Gaussian integral is
    [0], and [det (J^T J) > 0] and the membership of [ln det (J^T J)] in
    [gclass n] come with it. *)
Definition gauss_jacobian_density (n : nat) (h : vec -> vec) (J : vec -> mat) : Prop :=
  forall z, det n (gram n (J z)) = exp (nsq n (h z) - nsq n z).

(** Functions of the first [n] coordinates only. *)
Definition first_coords (n : nat) (F : vec -> R) : Prop :=
  forall z z', (forall j, (j < n)%nat -> z j = z' j) -> F z = F z'.

(** A polynomial of the first [n] coordinates is in [gclass n]. *)
Lemma PolyN_gclass : forall n F, PolyN n F -> first_coords n F -> gclass n F.
Proof.
  induction n as [|m IH]; intros F HF Hloc.
  - simpl. intros t. apply Hloc. intros j Hj. lia.
  - destruct HF as [HF1 HF2]. split.
    + intros z. split; [exact (poly_cont _ (HF1 z)) | exact (ex_gint_poly _ (HF1 z))].
    + apply IH; [exact HF2|]. intros z z' E. f_equal. apply functional_extensionality. intros x.
      apply Hloc. intros j Hj. unfold vset. destruct (Nat.eq_dec j m); [reflexivity|]. apply E. lia.
Qed.

(** [E |z|^2 = n] under the iterated Gaussian integral. *)
Lemma gexpn_nsq : forall n, PolyN n (nsq n) /\ gexpn n (nsq n) = INR n.
Proof.
  intros n.
  assert (E : nsq n = fun z => fsum n (fun j => psi n (ev j) z * psi n (ev j) z)).
  { apply functional_extensionality. intros z. unfold nsq, dot. apply fsum_ext.
    intros j Hj. rewrite psi_ev by exact Hj. reflexivity. }
  destruct (gexpn_fsum n n (fun j z => psi n (ev j) z * psi n (ev j) z)) as [Hp He].
  { intros k _. cbn beta. rewrite psipsi_sumprod. apply PolyN_sumprod.
    intros k' j. apply poly_mul; apply hn_poly. }
  rewrite E. split; [exact Hp|]. rewrite He.
  rewrite (fsum_ext n _ (fun _ => 1)); [rewrite fsum_const; ring|].
  intros j Hj. rewrite gexpn_ev2 by exact Hj. apply kron_diag.
Qed.

Lemma gclass_nsq : forall n, gclass n (nsq n).
Proof.
  intros n. apply PolyN_gclass; [apply gexpn_nsq|].
  intros z z' E. unfold nsq, dot. apply fsum_ext. intros i Hi. rewrite (E i Hi). reflexivity.
Qed.

(** ** [E |h(z)|^2 = E |z|^2] from whitening.

    Whitening, [E [h h^T] = I], gives unit second moments on its diagonal:
    [E [h_i h_i] = 1] for [i < n].  That diagonal alone fixes the energy, since
    [|h|^2] is the sum of the [h_i h_i] and the iterated integral is linear on
    [gclass n]: [E |h(z)|^2 = n = E |z|^2].  The off-diagonal [E [h_i h_j] = 0]
    is not needed.  Only coordinates [i < n] are constrained: [nsq n] never
    reads the others. *)
Lemma gexpn_fsum_gclass : forall n N (F : nat -> vec -> R), (forall k, (k < N)%nat -> gclass n (F k)) ->
  gclass n (fun z => fsum N (fun k => F k z)) /\
  gexpn n (fun z => fsum N (fun k => F k z)) = fsum N (fun k => gexpn n (F k)).
Proof.
  intros n N F HF. destruct (gexpn_is_expectation n) as [Hc [Hl _]].
  induction N as [|N IH].
  - exact (Hc 0).
  - destruct IH as [HI HE]; [intros; apply HF; lia|].
    destruct (Hl 1 1 _ _ HI (HF N ltac:(lia))) as [HI' HE'].
    assert (Hs : forall z, fsum (S N) (fun k => F k z) = 1 * fsum N (fun k => F k z) + 1 * F N z)
      by (intros z; cbn [fsum]; ring).
    split.
    + apply (gclass_ext n (fun z => 1 * fsum N (fun k => F k z) + 1 * F N z));
        [intros z; symmetry; apply Hs | exact HI'].
    + rewrite (gexpn_ext n (fun z => fsum (S N) (fun k => F k z))
                 (fun z => 1 * fsum N (fun k => F k z) + 1 * F N z) Hs), HE', HE.
      cbn [fsum]. ring.
Qed.

Theorem gauss_whitened_energy : forall n (h : vec -> vec),
  (forall i, (i < n)%nat -> gclass n (fun z => h z i * h z i)) ->
  (forall i, (i < n)%nat -> gexpn n (fun z => h z i * h z i) = 1) ->
  gclass n (fun z => nsq n (h z)) /\ gexpn n (fun z => nsq n (h z)) = gexpn n (nsq n).
Proof.
  intros n h Hc H1.
  destruct (gexpn_fsum_gclass n n (fun i z => h z i * h z i) Hc) as [HI HE].
  split; [exact HI|].
  change (gexpn n (fun z => fsum n (fun i => h z i * h z i)) = gexpn n (nsq n)).
  rewrite HE, (proj2 (gexpn_nsq n)).
  rewrite (fsum_ext n _ (fun _ => 1)) by (intros i Hi; apply H1, Hi).
  rewrite fsum_const. ring.
Qed.

(** The coordinates of [z] have unit second moments: the identity is whitened. *)
Lemma gexpn_coord2 : forall n i, (i < n)%nat ->
  gclass n (fun z => z i * z i) /\ gexpn n (fun z => z i * z i) = 1.
Proof.
  intros n i Hi.
  assert (E : forall z, z i * z i = psi n (ev i) z * psi n (ev i) z)
    by (intros z; rewrite psi_ev by exact Hi; reflexivity).
  split.
  - apply PolyN_gclass.
    + replace (fun z : vec => z i * z i) with (fun z : vec => psi n (ev i) z * psi n (ev i) z)
        by (apply functional_extensionality; intros z; symmetry; apply E).
      rewrite psipsi_sumprod. apply PolyN_sumprod. intros k j. apply poly_mul; apply hn_poly.
    + intros z z' Ez. rewrite (Ez i Hi). reflexivity.
  - rewrite (gexpn_ext n (fun z => z i * z i) (fun z => psi n (ev i) z * psi n (ev i) z) E).
    rewrite gexpn_ev2 by exact Hi. apply kron_diag.
Qed.

(** Premise D3 derived, with the positivity of [det (J^T J)]. *)
Theorem gauss_log_volume_zero : forall n h J,
  gauss_jacobian_density n h J ->
  gclass n (fun z => nsq n (h z)) ->
  gexpn n (fun z => nsq n (h z)) = gexpn n (nsq n) ->
  (forall z, 0 < det n (gram n (J z))) /\
  gclass n (fun z => log_volume n (J z)) /\ gexpn n (fun z => log_volume n (J z)) = 0.
Proof.
  intros n h J Hd Hc Hm.
  destruct (gexpn_is_expectation n) as [_ [Hl _]].
  assert (Hv : forall z, log_volume n (J z) = 1 * nsq n (h z) + -1 * nsq n z).
  { intros z. unfold log_volume. rewrite Hd, ln_exp. ring. }
  destruct (Hl 1 (-1) _ _ Hc (gclass_nsq n)) as [HI HE].
  split; [intros z; rewrite Hd; apply exp_pos|]. split.
  - apply (gclass_ext n (fun t => 1 * nsq n (h t) + -1 * nsq n t)); [intros t; symmetry; apply Hv | exact HI].
  - rewrite (gexpn_ext n (fun z => log_volume n (J z)) (fun t => 1 * nsq n (h t) + -1 * nsq n t) Hv).
    rewrite HE, Hm. ring.
Qed.

Lemma density_optimal : forall n h J,
  gauss_jacobian_density n h J ->
  gclass n (fun z => nsq n (h z)) -> gexpn n (fun z => nsq n (h z)) = gexpn n (nsq n) ->
  gclass n (fun z => dirichlet_energy n (J z)) ->
  gclass n (fun z => exp (/ INR n * log_volume n (J z))) ->
  gexpn n (fun z => dirichlet_energy n (J z)) = INR n ->
  dirichlet_optimal n (gclass n) (gexpn n) J.
Proof.
  intros n h J Hd Hc Hm He Hg Hen.
  destruct (gauss_log_volume_zero n h J Hd Hc Hm) as [Hpos [Hlc Hl0]].
  unfold dirichlet_optimal. repeat split; assumption.
Qed.

(** [dirichlet_identifiability_gauss] with D3 derived: [h] and its inverse
    satisfy the Jacobian density identity and preserve [E |.|^2]; the
    energies [E tr (J^T J) = n] and the integrability of [tr (J^T J)] and of
    [det (J^T J)^(1/n)] are still hypotheses, and so is everything about the
    inverse (D4: the chain rule that would pass them from [h] to [g] is not
    formalized). *)
Theorem dirichlet_identifiability_gauss_density :
  forall n h J g Jg, (0 < n)%nat ->
  has_jacobian n h J -> gauss_jacobian_density n h J ->
  gclass n (fun z => nsq n (h z)) -> gexpn n (fun z => nsq n (h z)) = gexpn n (nsq n) ->
  gclass n (fun z => dirichlet_energy n (J z)) ->
  gclass n (fun z => exp (/ INR n * log_volume n (J z))) ->
  gexpn n (fun z => dirichlet_energy n (J z)) = INR n ->
  has_jacobian n g Jg -> gauss_jacobian_density n g Jg ->
  gclass n (fun z => nsq n (g z)) -> gexpn n (fun z => nsq n (g z)) = gexpn n (nsq n) ->
  gclass n (fun z => dirichlet_energy n (Jg z)) ->
  gclass n (fun z => exp (/ INR n * log_volume n (Jg z))) ->
  gexpn n (fun z => dirichlet_energy n (Jg z)) = INR n ->
  (forall x, veq n (g (h x)) x) ->
  veq n (h (fun _ => 0)) (fun _ => 0) ->
  exists Q : mat,
    (forall i k, (i < n)%nat -> (k < n)%nat -> fsum n (fun j => Q j i * Q j k) = kron i k) /\
    forall z, veq n (h z) (mapply n Q z).
Proof.
  intros n h J g Jg Hn HJ Hd Hc Hm He Hgm Hen HJg Hdg Hcg Hmg Heg Hgg Heng Hinv H0.
  apply (dirichlet_identifiability_gauss n h J g Jg Hn HJ); try assumption.
  - apply (density_optimal n h J); assumption.
  - apply (density_optimal n g Jg); assumption.
Qed.

(** [dirichlet_identifiability_gauss_density] with [E |h(z)|^2 = E |z|^2]
    derived from whitening ([gauss_whitened_energy]): unit second moments
    [E [h_i h_i] = 1], for [h] and for its inverse, replace it.  The Jacobian
    density identity, the energies and D4 stay hypotheses as there. *)
Theorem dirichlet_identifiability_gauss_whitened :
  forall n h J g Jg, (0 < n)%nat ->
  has_jacobian n h J -> gauss_jacobian_density n h J ->
  (forall i, (i < n)%nat -> gclass n (fun z => h z i * h z i)) ->
  (forall i, (i < n)%nat -> gexpn n (fun z => h z i * h z i) = 1) ->
  gclass n (fun z => dirichlet_energy n (J z)) ->
  gclass n (fun z => exp (/ INR n * log_volume n (J z))) ->
  gexpn n (fun z => dirichlet_energy n (J z)) = INR n ->
  has_jacobian n g Jg -> gauss_jacobian_density n g Jg ->
  (forall i, (i < n)%nat -> gclass n (fun z => g z i * g z i)) ->
  (forall i, (i < n)%nat -> gexpn n (fun z => g z i * g z i) = 1) ->
  gclass n (fun z => dirichlet_energy n (Jg z)) ->
  gclass n (fun z => exp (/ INR n * log_volume n (Jg z))) ->
  gexpn n (fun z => dirichlet_energy n (Jg z)) = INR n ->
  (forall x, veq n (g (h x)) x) ->
  veq n (h (fun _ => 0)) (fun _ => 0) ->
  exists Q : mat,
    (forall i k, (i < n)%nat -> (k < n)%nat -> fsum n (fun j => Q j i * Q j k) = kron i k) /\
    forall z, veq n (h z) (mapply n Q z).
Proof.
  intros n h J g Jg Hn HJ Hd Hc H1 He Hgm Hen HJg Hdg Hcg H1g Heg Hgg Heng Hinv H0.
  destruct (gauss_whitened_energy n h Hc H1) as [Hch Hmh].
  destruct (gauss_whitened_energy n g Hcg H1g) as [Hcg' Hmg].
  apply (dirichlet_identifiability_gauss_density n h J g Jg); assumption.
Qed.

(** Not vacuous: the identity of R^n meets every hypothesis of
    [dirichlet_identifiability_gauss_density] (for itself as [h] and as [g]). *)
Theorem dirichlet_identifiability_gauss_density_satisfiable :
  forall n, (0 < n)%nat ->
  exists (h : vec -> vec) (J : vec -> mat),
    has_jacobian n h J /\ gauss_jacobian_density n h J /\
    gclass n (fun z => nsq n (h z)) /\ gexpn n (fun z => nsq n (h z)) = gexpn n (nsq n) /\
    gclass n (fun z => dirichlet_energy n (J z)) /\
    gclass n (fun z => exp (/ INR n * log_volume n (J z))) /\
    gexpn n (fun z => dirichlet_energy n (J z)) = INR n /\
    (forall x, veq n (h (h x)) x) /\ veq n (h (fun _ => 0)) (fun _ => 0).
Proof.
  intros n Hn. destruct (gexpn_is_expectation n) as [Hc _].
  destruct (kron_volume_energy n) as [Hdet [Hvol Hen]].
  assert (Htr : forall z, nsq n (trunc n z) = nsq n z).
  { intros z. unfold nsq, dot, trunc. apply fsum_ext. intros i Hi.
    apply Nat.ltb_lt in Hi. rewrite Hi. reflexivity. }
  exists (trunc n), (fun _ => kron). split; [apply trunc_jacobian|].
  split; [intros z; rewrite Hdet, Htr, Rminus_eq_0, exp_0; reflexivity|].
  split; [apply (gclass_ext n (nsq n)); [intros; symmetry; apply Htr | apply gclass_nsq]|].
  split; [apply gexpn_ext; apply Htr|].
  split; [rewrite Hen; apply Hc|].
  split; [rewrite Hvol; apply Hc|].
  split; [rewrite Hen; apply Hc|].
  split.
  - intros x i Hi. unfold trunc. apply Nat.ltb_lt in Hi. rewrite Hi. reflexivity.
  - intros i Hi. unfold trunc. destruct (Nat.ltb i n); reflexivity.
Qed.

(** Not vacuous: the identity of R^n meets every hypothesis of
    [dirichlet_identifiability_gauss_whitened] (for itself as [h] and as [g]). *)
Theorem dirichlet_identifiability_gauss_whitened_satisfiable :
  forall n, (0 < n)%nat ->
  exists (h : vec -> vec) (J : vec -> mat),
    has_jacobian n h J /\ gauss_jacobian_density n h J /\
    (forall i, (i < n)%nat -> gclass n (fun z => h z i * h z i)) /\
    (forall i, (i < n)%nat -> gexpn n (fun z => h z i * h z i) = 1) /\
    gclass n (fun z => dirichlet_energy n (J z)) /\
    gclass n (fun z => exp (/ INR n * log_volume n (J z))) /\
    gexpn n (fun z => dirichlet_energy n (J z)) = INR n /\
    (forall x, veq n (h (h x)) x) /\ veq n (h (fun _ => 0)) (fun _ => 0).
Proof.
  intros n Hn.
  destruct (gexpn_is_expectation n) as [Hc _].
  destruct (kron_volume_energy n) as [Hdet [Hvol Hen]].
  assert (Htr : forall z, nsq n (trunc n z) = nsq n z).
  { intros z. unfold nsq, dot, trunc. apply fsum_ext. intros i Hi.
    apply Nat.ltb_lt in Hi. rewrite Hi. reflexivity. }
  assert (Hco : forall i z, (i < n)%nat -> trunc n z i * trunc n z i = z i * z i).
  { intros i z Hi. unfold trunc. apply Nat.ltb_lt in Hi. rewrite Hi. reflexivity. }
  exists (trunc n), (fun _ => kron). split; [apply trunc_jacobian|].
  split; [intros z; rewrite Hdet, Htr, Rminus_eq_0, exp_0; reflexivity|].
  split.
  { intros i Hi. apply (gclass_ext n (fun z => z i * z i));
      [intros z; symmetry; apply Hco, Hi | apply gexpn_coord2, Hi]. }
  split.
  { intros i Hi. rewrite (gexpn_ext n _ (fun z => z i * z i)) by (intros z; apply Hco, Hi).
    apply gexpn_coord2, Hi. }
  split; [rewrite Hen; apply Hc|].
  split; [rewrite Hvol; apply Hc|].
  split; [rewrite Hen; apply Hc|].
  split.
  - intros x i Hi. unfold trunc. apply Nat.ltb_lt in Hi. rewrite Hi. reflexivity.
  - intros i Hi. unfold trunc. destruct (Nat.ltb i n); reflexivity.
Qed.
