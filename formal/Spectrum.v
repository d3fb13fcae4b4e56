(** * The spectral gap of the Gaussian (C1), by the energy route.

    For the Gaussian weight [w x = K exp (- c (x - m)^2 / 2)] ([K, c > 0]),
    every non-constant, twice-differentiable solution [g] of
    [g'' - c (x - m) g' = - mu g] with [g^2 w] integrable over the line
    (Coquelicot's improper integral) has [mu >= c] ([spectral_gap]).  No
    axiom beyond Coq's classical reals; no Kummer asymptotics.

    The proof, all on finite intervals:
    - (energy identity, [energy_identity]) [(w f f')' = w f'^2 - lam w f^2]
      for a solution [f] with eigenvalue [lam], so
      [int_a^b w f'^2 = lam int_a^b w f^2 + [w f f']_a^b];
    - (tails, [tail_p], [tail_m]) for any nonnegative differentiable [q]
      with [q w] integrable, [w q'] comes within any [eps] of 0 beyond any
      point, at both ends: otherwise [w q'] keeps one sign beyond some
      point (intermediate values); if [w q' <= - eps] then [q' <= - eps / K]
      and [q] turns negative; if [w q' >= eps] then
      [q >= eps (H - H X)] with [H = 1 / (c (x - m) w)] (a Mills-ratio
      bound, [H' <= 1 / w]), so [q w >= eps / (c (x - m))] up to an
      integrable term and [int q w] grows like [ln x];
    - (derivative, [spectral_gap]) with [q = g^2], the boundary terms of
      the energy identity are small at points as far out as wanted, so
      [g'] is square integrable too; [g'] solves the equation with
      eigenvalue [mu - c]; its energy identity on a long interval, with a
      positive mass of [g'^2 w] near a point where [g' <> 0], gives
      [0 <= int w g''^2 <= (mu - c) int w g'^2 + (small)], so [mu >= c]. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz Classical.
From LejepaId Require Import Gaussian.
Open Scope R_scope.

Local Notation mI := (Rbar_locally m_infty).
Local Notation pI := (Rbar_locally p_infty).

(** The Gaussian weight (the body of [Converse.gaussian_form]). *)
Definition wt (K c m x : R) : R := K * exp (- (c / 2) * (x - m) ^ 2).

Section Weight.
  Variables (K c m : R).
  Hypothesis HK : 0 < K.

  Lemma wt_pos : forall x, 0 < wt K c m x.
  Proof. intros x. unfold wt. apply Rmult_lt_0_compat; [exact HK | apply exp_pos]. Qed.

  Lemma wt_derive : forall x, is_derive (wt K c m) x (- c * (x - m) * wt K c m x).
  Proof.
    intros x. unfold wt. auto_derive; [exact I|].
    replace (- (c / 2) * ((x + - m) * ((x + - m) * 1))) with (- (c / 2) * (x - m) ^ 2) by ring. field.
  Qed.

  Lemma wt_cont : forall x, continuous (wt K c m) x.
  Proof. intros x. apply (ex_derive_continuous (wt K c m)). eexists. apply wt_derive. Qed.
End Weight.

Lemma wt_le : forall K c m x, 0 < K -> 0 <= c -> wt K c m x <= K.
Proof.
  intros K c m x HK Hc. unfold wt.
  assert (H0 : - (c / 2) * (x - m) ^ 2 <= 0).
  { assert (0 <= c / 2 * (x - m) ^ 2) by (apply Rmult_le_pos; [lra | apply pow2_ge_0]). lra. }
  assert (H1 : exp (- (c / 2) * (x - m) ^ 2) <= 1).
  { destruct H0 as [H0|H0]; [left; rewrite <- exp_0; apply exp_increasing, H0 | right; rewrite H0; apply exp_0]. }
  pose proof (exp_pos (- (c / 2) * (x - m) ^ 2)). nra.
Qed.

Lemma wt_refl : forall K c m x, wt K c (- m) x = wt K c m (- x).
Proof. intros. unfold wt. f_equal. f_equal. ring. Qed.

(** [w x * exp (c (x - m)^2 / 2) = K]. *)
Lemma wt_exp : forall K c m x, wt K c m x * exp (c / 2 * (x - m) ^ 2) = K.
Proof.
  intros. unfold wt. rewrite Rmult_assoc, <- exp_plus.
  replace (- (c / 2) * (x - m) ^ 2 + c / 2 * (x - m) ^ 2) with 0 by ring. rewrite exp_0. ring.
Qed.

(** ** Tools. *)

Lemma derive_cont : forall (f : R -> R) (df x : R), is_derive f x df -> continuous f x.
Proof. intros f df x H. apply (ex_derive_continuous f). exists df. exact H. Qed.

(** A function with a nonnegative derivative on [[a, b]] is larger at [b]. *)
Lemma mvt_incr : forall (f df : R -> R) (a b : R), a <= b ->
  (forall x, a <= x <= b -> is_derive f x (df x)) -> (forall x, a <= x <= b -> 0 <= df x) -> f a <= f b.
Proof.
  intros f df a b Hab Hd Hpos.
  destruct (MVT_gen f a b df) as [z [Hz E]].
  - intros x Hx. apply Hd. rewrite Rmin_left, Rmax_right in Hx by exact Hab. lra.
  - intros x Hx. rewrite Rmin_left, Rmax_right in Hx by exact Hab.
    apply continuity_pt_filterlim. apply (derive_cont f (df x)), Hd, Hx.
  - rewrite Rmin_left, Rmax_right in Hz by exact Hab.
    assert (0 <= df z * (b - a)) by (apply Rmult_le_pos; [apply Hpos, Hz | lra]). lra.
Qed.

Lemma ex_RInt_cont : forall (h : R -> R), (forall x, continuous h x) -> forall a b, ex_RInt h a b.
Proof. intros h Hc a b. apply (@ex_RInt_continuous R_CompleteNormedModule). intros z _. apply Hc. Qed.

Lemma cont_mul : forall (f h : R -> R) (x : R), continuous f x -> continuous h x -> continuous (fun t => f t * h t) x.
Proof. intros f h x Hf Hh. exact (continuous_mult (K := R_AbsRing) f h x Hf Hh). Qed.

Lemma cont_ext : forall (f h : R -> R) (x : R), (forall t, f t = h t) -> continuous f x -> continuous h x.
Proof. intros f h x E Hf. exact (continuous_ext f h x E Hf). Qed.

Lemma cont_pow2 : forall (f : R -> R) (x : R), continuous f x -> continuous (fun t => f t ^ 2) x.
Proof.
  intros f x Hf. apply (cont_ext (fun t => f t * f t)); [intros; ring|]. apply cont_mul; exact Hf.
Qed.

(** A subinterval of a nonnegative integrand carries less. *)
Lemma rint_sub_le : forall (h : R -> R) a b u v, (forall x, 0 <= h x) -> (forall x, continuous h x) ->
  a <= u -> u <= v -> v <= b -> RInt h u v <= RInt h a b.
Proof.
  intros h a b u v Hpos Hc Hau Huv Hvb. pose proof (ex_RInt_cont h Hc) as Hex.
  rewrite <- (RInt_Chasles h a u b), <- (RInt_Chasles h u v b) by apply Hex.
  pose proof (RInt_ge_0 h a u Hau (Hex _ _) (fun t _ => Hpos t)).
  pose proof (RInt_ge_0 h v b Hvb (Hex _ _) (fun t _ => Hpos t)).
  unfold plus; simpl. lra.
Qed.

(** The primitive from 0 of a nonnegative integrand is bounded by the
    integral over any interval containing 0 and the end point. *)
Lemma rint_abs_le : forall (h : R -> R) a b x, (forall x, 0 <= h x) -> (forall x, continuous h x) ->
  a <= Rmin 0 x -> Rmax 0 x <= b -> Rabs (RInt h 0 x) <= RInt h a b.
Proof.
  intros h a b x Hpos Hc Ha Hb. pose proof (ex_RInt_cont h Hc) as Hex.
  pose proof (Rmin_l 0 x). pose proof (Rmin_r 0 x). pose proof (Rmax_l 0 x). pose proof (Rmax_r 0 x).
  destruct (Rle_or_lt 0 x) as [Hx0|Hx0].
  - pose proof (RInt_ge_0 h 0 x Hx0 (Hex _ _) (fun t _ => Hpos t)).
    rewrite Rabs_pos_eq by lra. apply rint_sub_le; auto; lra.
  - pose proof (RInt_ge_0 h x 0 (Rlt_le _ _ Hx0) (Hex _ _) (fun t _ => Hpos t)).
    rewrite <- (opp_RInt_swap h x 0 (Hex _ _)). change (opp (RInt h x 0)) with (- RInt h x 0).
    rewrite Rabs_Ropp, Rabs_pos_eq by lra. apply rint_sub_le; auto; lra.
Qed.

(** A nonnegative continuous integrand with an improper integral [l] over
    the line has at most [l + 1] on every interval. *)
Lemma isg_bound : forall (h : R -> R) l, is_RInt_gen h mI pI l ->
  (forall x, 0 <= h x) -> (forall x, continuous h x) ->
  forall a b, a <= b -> RInt h a b <= l + 1.
Proof.
  intros h l H Hpos Hc a b Hab.
  assert (Hball : locally l (fun y => y < l + 1)).
  { exists (mkposreal 1 Rlt_0_1). intros y Hy. apply Rabs_lt_between' in Hy. simpl in Hy. lra. }
  destruct (H _ Hball) as [Pa Pb [A HA] [B HB] Himp].
  set (a' := Rmin a A - 1). set (b' := Rmax b B + 1).
  assert (Ha' : Pa a') by (apply HA; unfold a'; pose proof (Rmin_r a A); lra).
  assert (Hb' : Pb b') by (apply HB; unfold b'; pose proof (Rmax_r b B); lra).
  destruct (Himp a' b' Ha' Hb') as [y [Hy Hyl]]. simpl in Hy.
  rewrite <- (is_RInt_unique h a' b' y Hy) in Hyl.
  assert (RInt h a b <= RInt h a' b').
  { pose proof (Rmin_l a A). pose proof (Rmax_l b B). apply rint_sub_le; auto; unfold a', b'; lra. }
  lra.
Qed.

Lemma der_ext : forall (f h : R -> R) (x d : R), (forall t, f t = h t) -> is_derive f x d -> is_derive h x d.
Proof. intros f h x d E H. exact (is_derive_ext f h x d E H). Qed.

Lemma der_val : forall (f : R -> R) (x d d' : R), is_derive f x d -> d = d' -> is_derive f x d'.
Proof. intros f x d d' H <-. exact H. Qed.

Lemma der_id : forall x : R, is_derive (fun t : R => t) x 1.
Proof. intros x. auto_derive; [exact I | cbv beta; ring]. Qed.

Lemma der_lin : forall (f h : R -> R) (x df dh a b : R), is_derive f x df -> is_derive h x dh ->
  is_derive (fun t => a * f t + b * h t) x (a * df + b * dh).
Proof.
  intros f h x df dh a b Hf Hh.
  exact (is_derive_plus _ _ x _ _ (is_derive_scal f x a df Hf) (is_derive_scal h x b dh Hh)).
Qed.

Lemma der_mul : forall (f h : R -> R) (x df dh : R), is_derive f x df -> is_derive h x dh ->
  is_derive (fun t => f t * h t) x (df * h x + f x * dh).
Proof. intros f h x df dh Hf Hh. exact (Coquelicot.Derive.is_derive_mult f h x df dh Hf Hh). Qed.

(** ** Tails: [w q'] comes back near 0 beyond every point. *)

Section Tail.
  Variables (K c m B : R) (q dq : R -> R).
  Hypothesis HK : 0 < K.
  Hypothesis Hc : 0 < c.
  Hypothesis Hq : forall x, 0 <= q x.
  Hypothesis Hdq : forall x : R, is_derive q x (dq x).
  Hypothesis Hdqc : forall x : R, continuous dq x.
  Hypothesis HB : forall a b, a <= b -> RInt (fun t => q t * wt K c m t) a b <= B.

  Lemma q_cont : forall x, continuous q x.
  Proof. intros x. exact (derive_cont q (dq x) x (Hdq x)). Qed.

  Lemma qw_cont : forall x, continuous (fun t => q t * wt K c m t) x.
  Proof. intros x. apply cont_mul; [apply q_cont | apply wt_cont]. Qed.

  (** [w q' <= - eps] beyond [X] makes [q] negative. *)
  Lemma tail_neg : forall X eps, 0 < eps -> ~ (forall b, X <= b -> wt K c m b * dq b < - eps).
  Proof.
    intros X eps He Hall.
    set (b := X + K * (q X + 1) / eps).
    assert (Hpos : 0 < K * (q X + 1) / eps).
    { apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; [exact HK | pose proof (Hq X); lra] | exact He]. }
    assert (Hb : X <= b) by (unfold b; lra).
    assert (Hdq' : forall t, X <= t -> K * dq t <= - eps).
    { intros t Ht. pose proof (Hall t Ht). pose proof (wt_pos K c m HK t). pose proof (wt_le K c m t HK (Rlt_le _ _ Hc)).
      assert (dq t < 0) by (destruct (Rlt_or_le (dq t) 0) as [Hl|Hl]; [exact Hl | nra]). nra. }
    pose proof (mvt_incr (fun t => - q t - eps / K * t) (fun t => - dq t - eps / K) X b Hb) as M.
    assert (Hle : - q X - eps / K * X <= - q b - eps / K * b).
    { apply M.
      - intros x _. apply (der_ext (fun t => (-1) * q t + (- (eps / K)) * t)); [intros; ring|].
        apply (der_val _ _ ((-1) * dq x + (- (eps / K)) * 1)); [apply der_lin; [apply Hdq | apply der_id] | cbv beta; ring].
      - intros x [Hx _]. pose proof (Hdq' x Hx).
        assert (dq x <= - eps / K) by (apply (Rmult_le_reg_l K); [exact HK|]; replace (K * (- eps / K)) with (- eps) by (field; lra); exact H).
        assert (0 < eps / K) by (apply Rdiv_lt_0_compat; assumption). lra. }
    assert (Hqb : q b <= q X - eps / K * (b - X)) by lra.
    replace (eps / K * (b - X)) with (q X + 1) in Hqb by (unfold b; field; lra).
    pose proof (Hq b). lra.
  Qed.

  (** [w q' >= eps] beyond [X] makes [int q w] grow like [ln x]. *)
  Lemma tail_pos : forall X eps, 0 < eps -> m + 1 <= X -> ~ (forall b, X <= b -> eps < wt K c m b * dq b).
  Proof.
    intros X eps He HX Hall.
    set (E := fun t => exp (c / 2 * (t - m) ^ 2)).
    assert (HE : forall t, 0 < E t) by (intros; apply exp_pos).
    assert (HwE : forall t, wt K c m t * E t = K) by (intros; apply wt_exp).
    set (H := fun t => E t / (K * c * (t - m))).
    set (dH := fun t => E t / K * (1 - / (c * (t - m) ^ 2))).
    assert (HdH : forall t, m < t -> is_derive H t (dH t)).
    { intros t Ht. unfold H, dH, E. auto_derive.
      - assert (0 < K * c * (t + - m)) by (apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; lra). lra.
      - replace (c / 2 * ((t + - m) * ((t + - m) * 1))) with (c / 2 * (t - m) ^ 2) by ring.
        field. split; [lra|]. split; lra. }
    (* Mills: q t >= eps (H t - H X) *)
    assert (Hlow : forall t, X <= t -> eps * (H t - H X) <= q t).
    { intros t Ht.
      assert (M : q X - eps * H X <= q t - eps * H t).
      { apply (mvt_incr (fun s => q s - eps * H s) (fun s => dq s - eps * dH s) X t Ht).
        - intros s [Hs _]. apply (der_ext (fun s => 1 * q s + (- eps) * H s)); [intros; ring|].
          apply (der_val _ _ (1 * dq s + (- eps) * dH s)); [apply der_lin; [apply Hdq | apply HdH; lra] | cbv beta; ring].
        - intros s [Hs _]. pose proof (Hall s Hs) as Hws. pose proof (HwE s). pose proof (HE s).
          assert (Hd1 : eps * (E s / K) < dq s).
          { apply (Rmult_lt_reg_l K); [exact HK|].
            replace (K * (eps * (E s / K))) with (eps * E s) by (field; lra).
            rewrite <- (HwE s). nra. }
          assert (Hd2 : dH s <= E s / K).
          { unfold dH. assert (0 < / (c * (s - m) ^ 2)).
            { apply Rinv_0_lt_compat, Rmult_lt_0_compat; [exact Hc | apply pow_lt; lra]. }
            assert (0 < E s / K) by (apply Rdiv_lt_0_compat; assumption). nra. }
          nra. }
      pose proof (Hq X). lra. }
    assert (HHX : 0 < H X).
    { unfold H. apply Rdiv_lt_0_compat; [apply HE | apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; lra]. }
    (* lower bound for q w *)
    assert (Hwq : forall t, X <= t -> eps * (/ (c * (t - m)) - wt K c m t * H X) <= q t * wt K c m t).
    { intros t Ht. pose proof (Hlow t Ht). pose proof (wt_pos K c m HK t).
      assert (Hwt : wt K c m t * H t = / (c * (t - m))).
      { unfold H. replace (wt K c m t * (E t / (K * c * (t - m)))) with ((wt K c m t * E t) / (K * c * (t - m)))
          by (field; split; [|split]; lra).
        rewrite HwE. field. split; [|split]; lra. }
      rewrite <- Hwt. nra. }
    (* comparison function G, G' <= q w *)
    set (G := fun t => (eps / c) * ln (t - m) + (eps * H X / (c * (X - m))) * wt K c m t).
    set (dG := fun t => (eps / c) * / (t - m) + (eps * H X / (c * (X - m))) * (- c * (t - m) * wt K c m t)).
    assert (HdG : forall t, m < t -> is_derive G t (dG t)).
    { intros t Ht. apply der_lin; [|apply wt_derive]. auto_derive; [lra | field; lra]. }
    assert (HdGle : forall t, X <= t -> dG t <= q t * wt K c m t).
    { intros t Ht. eapply Rle_trans; [|apply Hwq, Ht]. unfold dG.
      pose proof (wt_pos K c m HK t).
      replace (eps / c * / (t - m)) with (eps * / (c * (t - m))) by (field; split; lra).
      assert (Hr : (eps * H X / (c * (X - m))) * (- c * (t - m) * wt K c m t) = - eps * (wt K c m t * H X) * ((t - m) / (X - m))).
      { field. split; lra. }
      rewrite Hr. assert (1 <= (t - m) / (X - m)).
      { apply (Rmult_le_reg_r (X - m)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
      assert (0 < wt K c m t * H X) by (apply Rmult_lt_0_compat; assumption).
      assert (0 <= eps * (wt K c m t * H X) * ((t - m) / (X - m) - 1)) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
      lra. }
    (* F b - F X >= G b - G X *)
    set (F := fun t => RInt (fun s => q s * wt K c m s) X t).
    assert (HdF : forall t, is_derive F t (q t * wt K c m t)).
    { intros t. apply (is_derive_RInt (fun s => q s * wt K c m s) F X t); [|apply qw_cont].
      apply filter_forall. intros y. unfold F. apply (RInt_correct (fun s => q s * wt K c m s) X y).
      apply ex_RInt_cont, qw_cont. }
    assert (HFG : forall b, X <= b -> G b - G X <= F b).
    { intros b Hb.
      assert (M : F X - G X <= F b - G b).
      { apply (mvt_incr (fun t => F t - G t) (fun t => q t * wt K c m t - dG t) X b Hb).
        - intros t [Ht _]. apply (der_ext (fun t => 1 * F t + (-1) * G t)); [intros; ring|].
          apply (der_val _ _ (1 * (q t * wt K c m t) + (-1) * dG t)); [apply der_lin; [apply HdF | apply HdG; lra] | cbv beta; ring].
        - intros t [Ht _]. pose proof (HdGle t Ht). lra. }
      assert (F X = 0) by (unfold F; exact (@RInt_point R_CompleteNormedModule X (fun s => q s * wt K c m s))). lra. }
    (* choose b far out *)
    set (A := H X * wt K c m X / (X - m)).
    assert (HA : 0 <= A).
    { unfold A. apply Rdiv_le_0_compat; [|lra]. apply Rmult_le_pos; [lra | left; apply wt_pos, HK]. }
    set (L := ln (X - m) + A + c * (Rabs B + 1) / eps).
    assert (HL : ln (X - m) < L).
    { unfold L. assert (0 < c * (Rabs B + 1) / eps) by (apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; [exact Hc | pose proof (Rabs_pos B); lra] | exact He]). lra. }
    set (b := m + exp L).
    assert (Hb : X <= b).
    { unfold b. pose proof (exp_increasing _ _ HL). rewrite exp_ln in H0 by lra. lra. }
    assert (Hlnb : ln (b - m) = L) by (unfold b; replace (m + exp L - m) with (exp L) by ring; apply ln_exp).
    pose proof (HFG b Hb) as Hgb. unfold G in Hgb. rewrite Hlnb in Hgb.
    assert (HFb : F b <= B) by (apply HB, Hb).
    pose proof (wt_pos K c m HK b).
    assert (Hk : 0 <= eps * H X / (c * (X - m))).
    { apply Rdiv_le_0_compat; [nra | apply Rmult_lt_0_compat; lra]. }
    assert (Hgrow : Rabs B + 1 <= eps / c * L + eps * H X / (c * (X - m)) * wt K c m b
                        - (eps / c * ln (X - m) + eps * H X / (c * (X - m)) * wt K c m X)).
    { assert (E1 : eps / c * L - eps / c * ln (X - m) = eps / c * A + (Rabs B + 1)).
      { unfold L. field. split; lra. }
      assert (E2 : eps * H X / (c * (X - m)) * wt K c m X = eps / c * A).
      { unfold A. field. split; lra. }
      assert (0 <= eps * H X / (c * (X - m)) * wt K c m b) by (apply Rmult_le_pos; lra).
      lra. }
    pose proof (Rle_abs B). lra.
  Qed.

  (** Beyond every point, [w q'] comes within [eps] of 0. *)
  Lemma tail_small : forall X eps, 0 < eps -> exists b, X <= b /\ Rabs (wt K c m b * dq b) <= eps.
  Proof.
    intros X eps He.
    pose proof (Rmax_l X (m + 1)) as HX1. pose proof (Rmax_r X (m + 1)) as HX2.
    set (X' := Rmax X (m + 1)) in *.
    set (phi := fun t => wt K c m t * dq t).
    assert (Hphi : forall t, continuous phi t) by (intros; apply cont_mul; [apply wt_cont | apply Hdqc]).
    destruct (classic (exists b, X <= b /\ Rabs (phi b) <= eps)) as [Hex|Hno]; [exact Hex|exfalso].
    assert (Hall : forall b, X' <= b -> eps < Rabs (phi b)).
    { intros b Hb. apply Rnot_le_lt. intros Hle. apply Hno. exists b. split; [lra | exact Hle]. }
    destruct (Rle_or_lt 0 (phi X')) as [H0|H0].
    - apply (tail_pos X' eps He ltac:(lra)). intros b Hb.
      pose proof (Hall b Hb) as Hab. fold (phi b).
      destruct (Rle_or_lt (phi b) 0) as [Hb0|Hb0].
      + exfalso. destruct (IVT_gen_consistent phi X' b 0 Hphi) as [z [Hz Hz0]].
        { split; [apply Rle_trans with (phi b); [apply Rmin_r | exact Hb0] | apply Rle_trans with (phi X'); [exact H0 | apply Rmax_l]]. }
        rewrite Rmin_left in Hz by exact Hb. pose proof (Hall z (proj1 Hz)) as Hz1. rewrite Hz0, Rabs_R0 in Hz1. lra.
      + rewrite Rabs_pos_eq in Hab by lra. exact Hab.
    - apply (tail_neg X' eps He). intros b Hb.
      pose proof (Hall b Hb) as Hab. fold (phi b).
      destruct (Rle_or_lt 0 (phi b)) as [Hb0|Hb0].
      + exfalso. destruct (IVT_gen_consistent phi X' b 0 Hphi) as [z [Hz Hz0]].
        { split; [apply Rle_trans with (phi X'); [apply Rmin_l | lra] | apply Rle_trans with (phi b); [exact Hb0 | apply Rmax_r]]. }
        rewrite Rmin_left in Hz by exact Hb. pose proof (Hall z (proj1 Hz)) as Hz1. rewrite Hz0, Rabs_R0 in Hz1. lra.
      + rewrite Rabs_left in Hab by lra. lra.
  Qed.
End Tail.

Lemma der_opp : forall x : R, is_derive (fun t : R => - t) x (-1).
Proof. intros x. auto_derive; [exact I | ring]. Qed.

Lemma rint_opp : forall (h : R -> R) (a b : R), (forall x, continuous h x) ->
  RInt (fun t => h (- t)) a b = RInt h (- b) (- a).
Proof.
  intros h a b Hc. apply is_RInt_unique.
  pose proof (RInt_correct h (- b) (- a) (ex_RInt_cont h Hc _ _)) as H.
  apply is_RInt_swap in H. apply (is_RInt_comp_opp h) in H. apply is_RInt_opp in H.
  rewrite opp_opp in H. apply (is_RInt_ext _ _ a b _ (fun x _ => opp_opp (h (- x))) H).
Qed.

(** The same at [-oo], by the reflection [x |-> - x] (which maps the
    weight centred at [m] to the one centred at [- m]). *)
Lemma tail_small_m : forall K c m B (q dq : R -> R), 0 < K -> 0 < c ->
  (forall x, 0 <= q x) -> (forall x : R, is_derive q x (dq x)) -> (forall x : R, continuous dq x) ->
  (forall a b, a <= b -> RInt (fun t => q t * wt K c m t) a b <= B) ->
  forall X eps, 0 < eps -> exists a, a <= X /\ Rabs (wt K c m a * dq a) <= eps.
Proof.
  intros K c m B q dq HK Hc Hq Hdq Hdqc HB X eps He.
  destruct (tail_small K c (- m) B (fun x => q (- x)) (fun x => - dq (- x)) HK Hc) with (X := - X) (eps := eps)
    as [b [Hb Hab]]; [intros x; apply Hq | | | | exact He |].
  - intros x. apply (der_val _ _ ((-1) * dq (- x))); [|ring].
    exact (is_derive_comp q (fun x => - x) x (dq (- x)) (-1) (Hdq (- x)) (der_opp x)).
  - intros x. apply (cont_ext (fun t => (-1) * dq (- t))); [intros; ring|].
    apply cont_mul; [apply continuous_const|].
    apply (continuous_comp (fun t : R => - t) dq x); [apply (derive_cont _ (-1)), der_opp | apply Hdqc].
  - intros a b Hab.
    rewrite (RInt_ext (fun t => q (- t) * wt K c (- m) t) (fun t => (fun s => q s * wt K c m s) (- t)))
      by (intros; rewrite wt_refl; reflexivity).
    rewrite (rint_opp (fun s => q s * wt K c m s) a b (qw_cont K c m q dq Hdq)). apply HB. lra.
  - exists (- b). split; [lra|]. rewrite <- wt_refl.
    replace (wt K c (- m) b * - dq (- b)) with (- (wt K c (- m) b * dq (- b))) in Hab by ring.
    rewrite Rabs_Ropp in Hab. exact Hab.
Qed.

(** ** The energy identity: [int_a^b w f'^2 = lam int_a^b w f^2 + [w f f']_a^b]. *)

Lemma rint_lin : forall (f h : R -> R) (a b lam : R), (forall x, continuous f x) -> (forall x, continuous h x) ->
  RInt (fun t => f t + lam * h t) a b = RInt f a b + lam * RInt h a b.
Proof.
  intros f h a b lam Hf Hh.
  assert (Hs : ex_RInt (fun t => lam * h t) a b).
  { apply ex_RInt_cont. intros; apply cont_mul; [apply continuous_const | apply Hh]. }
  transitivity (plus (RInt f a b) (RInt (fun t => lam * h t) a b)).
  - exact (RInt_plus f (fun t => lam * h t) a b (ex_RInt_cont f Hf a b) Hs).
  - assert (E : RInt (fun t => lam * h t) a b = lam * RInt h a b) by exact (RInt_scal h a b lam (ex_RInt_cont h Hh a b)).
    rewrite E. reflexivity.
Qed.

Lemma energy_identity : forall K c m lam (f f1 f2 : R -> R),
  (forall x : R, is_derive f x (f1 x)) -> (forall x : R, is_derive f1 x (f2 x)) ->
  (forall x, f2 x = c * (x - m) * f1 x - lam * f x) ->
  forall a b, RInt (fun t => f1 t ^ 2 * wt K c m t) a b =
    lam * RInt (fun t => f t ^ 2 * wt K c m t) a b + (wt K c m b * f b * f1 b - wt K c m a * f a * f1 a).
Proof.
  intros K c m lam f f1 f2 Hf Hf1 Heq a b.
  assert (Cf : forall x, continuous f x) by (intros x; exact (derive_cont f (f1 x) x (Hf x))).
  assert (Cf1 : forall x, continuous f1 x) by (intros x; exact (derive_cont f1 (f2 x) x (Hf1 x))).
  assert (Cw : forall x, continuous (fun t => f t ^ 2 * wt K c m t) x) by (intros; apply cont_mul; [apply cont_pow2, Cf | apply wt_cont]).
  set (P := fun t => wt K c m t * f t * f1 t).
  set (d := fun t => f1 t ^ 2 * wt K c m t + (- lam) * (f t ^ 2 * wt K c m t)).
  assert (HP : forall t, is_derive P t (d t)).
  { intros t. unfold P, d.
    pose proof (der_mul (wt K c m) f t _ _ (wt_derive K c m t) (Hf t)) as H1.
    pose proof (der_mul (fun s => wt K c m s * f s) f1 t _ _ H1 (Hf1 t)) as H2.
    apply (der_val _ _ _ _ H2). rewrite Heq. ring. }
  assert (Cd : forall t, continuous d t).
  { intros t. apply (cont_ext (fun t => f1 t ^ 2 * wt K c m t + (- lam) * (f t ^ 2 * wt K c m t))); [intros; reflexivity|].
    apply (continuous_plus (V := R_NormedModule)); [apply cont_mul; [apply cont_pow2, Cf1 | apply wt_cont]|].
    apply cont_mul; [apply continuous_const | apply Cw]. }
  assert (HI : RInt d a b = P b - P a).
  { apply is_RInt_unique. exact (is_RInt_derive P d a b (fun x _ => HP x) (fun x _ => Cd x)). }
  unfold d in HI. rewrite rint_lin in HI; [|intros; apply cont_mul; [apply cont_pow2, Cf1 | apply wt_cont] | apply Cw].
  unfold P in HI. lra.
Qed.

Lemma sq_derive : forall (f : R -> R) (x d : R), is_derive f x d -> is_derive (fun t => f t ^ 2) x (2 * f x * d).
Proof.
  intros f x d H. apply (der_ext (fun t => f t * f t)); [intros; ring|].
  apply (der_val _ _ _ _ (der_mul f f x d d H H)). ring.
Qed.

(** A non-constant differentiable function has a point of nonzero derivative. *)
Lemma nonconst_derive : forall (g g1 : R -> R), (forall x : R, is_derive g x (g1 x)) ->
  (exists x y, g x <> g y) -> exists x0, g1 x0 <> 0.
Proof.
  intros g g1 Hd [x [y Hxy]].
  destruct (classic (exists x0, g1 x0 <> 0)) as [H|H]; [exact H|exfalso].
  assert (Hz : forall t : R, is_derive g t 0).
  { intros t. destruct (Req_dec (g1 t) 0) as [E|E]; [rewrite <- E; apply Hd | exfalso; apply H; exists t; exact E]. }
  apply Hxy. destruct (Rtotal_order x y) as [Hl|[He|Hg]].
  - exact (eq_is_derive g x y (fun t _ => Hz t) Hl).
  - rewrite He. reflexivity.
  - symmetry. exact (eq_is_derive g y x (fun t _ => Hz t) Hg).
Qed.

(** ** The spectral gap. *)
Theorem spectral_gap : forall K c m, 0 < K -> 0 < c ->
  forall (g : R -> R) mu,
  ex_RInt_gen (fun x => g x ^ 2 * wt K c m x) mI pI ->
  (forall x, ex_derive g x /\ ex_derive (Derive g) x) ->
  (forall x, Derive (Derive g) x = c * (x - m) * Derive g x - mu * g x) ->
  (exists x y, g x <> g y) -> c <= mu.
Proof.
  intros K c m HK Hc g mu [l Hl] H2 Heq Hnc.
  set (g1 := Derive g). set (g2 := Derive g1).
  assert (Hd0 : forall x : R, is_derive g x (g1 x)) by (intros; apply Derive_correct, H2).
  assert (Hd1 : forall x : R, is_derive g1 x (g2 x)) by (intros; apply Derive_correct, H2).
  assert (Heq1 : forall x, g2 x = c * (x - m) * g1 x - mu * g x) by (intros; apply Heq).
  set (g3 := fun x => c * g1 x + c * (x - m) * g2 x - mu * g1 x).
  assert (Hd2 : forall x : R, is_derive g2 x (g3 x)).
  { intros x. apply (der_ext (fun t => 1 * ((c * (t - m)) * g1 t) + (- mu) * g t)); [intros; rewrite Heq1; ring|].
    apply (der_val _ _ (1 * ((c * 1) * g1 x + (c * (x - m)) * g2 x) + (- mu) * g1 x)); [|unfold g3; ring].
    apply der_lin; [|apply Hd0]. apply (der_mul (fun t => c * (t - m)) g1); [|apply Hd1].
    auto_derive; [exact I | ring]. }
  assert (Heq2 : forall x, g3 x = c * (x - m) * g2 x - (mu - c) * g1 x) by (intros; unfold g3; ring).
  assert (Cg : forall x, continuous g x) by (intros x; exact (derive_cont g _ x (Hd0 x))).
  assert (Cg1 : forall x, continuous g1 x) by (intros x; exact (derive_cont g1 _ x (Hd1 x))).
  assert (Cg2 : forall x, continuous g2 x) by (intros x; exact (derive_cont g2 _ x (Hd2 x))).
  assert (Hsq : forall (f : R -> R), (forall x, continuous f x) ->
            (forall x, 0 <= f x ^ 2 * wt K c m x) /\ (forall x, continuous (fun t => f t ^ 2 * wt K c m t) x)).
  { intros f Cf. split; intros x.
    - apply Rmult_le_pos; [apply pow2_ge_0 | left; apply wt_pos, HK].
    - apply cont_mul; [apply cont_pow2, Cf | apply wt_cont]. }
  destruct (Hsq g Cg) as [Pg Cwg]. destruct (Hsq g1 Cg1) as [Pg1 Cwg1]. destruct (Hsq g2 Cg2) as [Pg2 Cwg2].
  (* g^2 w has at most l + 1 on every interval *)
  pose proof (isg_bound _ l Hl Pg Cwg) as HBg.
  assert (Hqg : forall x : R, is_derive (fun t => g t ^ 2) x (2 * g x * g1 x)) by (intros; apply sq_derive, Hd0).
  assert (Cqg : forall x : R, continuous (fun t => 2 * g t * g1 t) x).
  { intros x. apply cont_mul; [apply cont_mul; [apply continuous_const | apply Cg] | apply Cg1]. }
  assert (Hqg1 : forall x : R, is_derive (fun t => g1 t ^ 2) x (2 * g1 x * g2 x)) by (intros; apply sq_derive, Hd1).
  assert (Cqg1 : forall x : R, continuous (fun t => 2 * g1 t * g2 t) x).
  { intros x. apply cont_mul; [apply cont_mul; [apply continuous_const | apply Cg1] | apply Cg2]. }
  assert (Hbd : forall (f f1 : R -> R) (u e : R), Rabs (wt K c m u * (2 * f u * f1 u)) <= 2 * e ->
            - e <= wt K c m u * f u * f1 u <= e).
  { intros f f1 u e H. replace (wt K c m u * (2 * f u * f1 u)) with (2 * (wt K c m u * f u * f1 u)) in H by ring.
    rewrite Rabs_mult, (Rabs_pos_eq 2) in H by lra. apply Rabs_le_between. lra. }
  (* g' is square integrable *)
  assert (HL2 : ex_RInt_gen (fun x => g1 x ^ 2 * wt K c m x) mI pI).
  { apply (bounded_primitive_improper (fun x => g1 x ^ 2 * wt K c m x) 0 (Rabs mu * (l + 1) + 2)); [exact Cwg1 | exact Pg1|].
    intros x.
    destruct (tail_small_m K c m (l + 1) (fun t => g t ^ 2) (fun t => 2 * g t * g1 t) HK Hc (fun t => pow2_ge_0 (g t)) Hqg Cqg HBg (Rmin 0 x) 2 ltac:(lra)) as [a [Ha Hwa]].
    destruct (tail_small K c m (l + 1) (fun t => g t ^ 2) (fun t => 2 * g t * g1 t) HK Hc (fun t => pow2_ge_0 (g t)) Hqg Cqg HBg (Rmax 0 x) 2 ltac:(lra)) as [b [Hb Hwb]].
    pose proof (Rmin_l 0 x). pose proof (Rmax_l 0 x).
    eapply Rle_trans; [apply (rint_abs_le _ a b x Pg1 Cwg1 Ha Hb)|].
    rewrite (energy_identity K c m mu g g1 g2 Hd0 Hd1 Heq1 a b).
    pose proof (HBg a b ltac:(lra)).
    assert (0 <= RInt (fun t => g t ^ 2 * wt K c m t) a b) by (apply RInt_ge_0; [lra | apply ex_RInt_cont, Cwg | intros; apply Pg]).
    assert (mu * RInt (fun t => g t ^ 2 * wt K c m t) a b <= Rabs mu * (l + 1)).
    { eapply Rle_trans; [apply Rle_abs|]. rewrite Rabs_mult, (Rabs_pos_eq (RInt _ a b)) by lra.
      apply Rmult_le_compat_l; [apply Rabs_pos | lra]. }
    pose proof (Hbd g g1 a 1 ltac:(lra)). pose proof (Hbd g g1 b 1 ltac:(lra)). lra. }
  destruct HL2 as [l1 Hl1]. pose proof (isg_bound _ l1 Hl1 Pg1 Cwg1) as HBg1.
  (* suppose mu < c *)
  destruct (Rle_or_lt c mu) as [Hle|Hlt]; [exact Hle|exfalso].
  destruct (nonconst_derive g g1 Hd0 Hnc) as [x0 Hx0].
  assert (He : 0 < Rabs (g1 x0) / 2) by (apply Rdiv_lt_0_compat; [apply Rabs_pos_lt, Hx0 | lra]).
  destruct (proj1 (filterlim_locally g1 (g1 x0)) (Cg1 x0) (mkposreal _ He)) as [dl Hdl].
  set (u := x0 - dl / 2). set (v := x0 + dl / 2).
  assert (Hdl0 : 0 < dl) by apply cond_pos.
  set (D := RInt (fun t => g1 t ^ 2 * wt K c m t) u v).
  assert (HD : 0 < D).
  { apply RInt_gt_0; [unfold u, v; lra | | intros; apply Cwg1].
    intros t [Ht1 Ht2]. apply Rmult_lt_0_compat; [|apply wt_pos, HK].
    assert (Hb : ball x0 dl t) by (apply ball_R; apply Rabs_lt_between'; unfold u, v in *; lra).
    pose proof (Hdl t Hb) as Hn. apply Rabs_lt_between' in Hn. simpl in Hn.
    assert (g1 t <> 0).
    { intros E. rewrite E in Hn. destruct (Rle_or_lt 0 (g1 x0)) as [P|P].
      - rewrite Rabs_pos_eq in Hn by lra. lra.
      - rewrite Rabs_left in Hn by lra. lra. }
    apply pow2_gt_0. exact H. }
  set (e := (c - mu) * D / 4).
  assert (He' : 0 < e) by (unfold e; apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; lra | lra]).
  destruct (tail_small_m K c m (l1 + 1) (fun t => g1 t ^ 2) (fun t => 2 * g1 t * g2 t) HK Hc (fun t => pow2_ge_0 (g1 t)) Hqg1 Cqg1 HBg1 u (2 * e) ltac:(lra)) as [a [Ha Hwa]].
  destruct (tail_small K c m (l1 + 1) (fun t => g1 t ^ 2) (fun t => 2 * g1 t * g2 t) HK Hc (fun t => pow2_ge_0 (g1 t)) Hqg1 Cqg1 HBg1 v (2 * e) ltac:(lra)) as [b [Hb Hwb]].
  assert (Huv : u <= v) by (unfold u, v; lra).
  pose proof (energy_identity K c m (mu - c) g1 g2 g3 Hd1 Hd2 Heq2 a b) as En.
  assert (0 <= RInt (fun t => g2 t ^ 2 * wt K c m t) a b) by (apply RInt_ge_0; [lra | apply ex_RInt_cont, Cwg2 | intros; apply Pg2]).
  assert (HDab : D <= RInt (fun t => g1 t ^ 2 * wt K c m t) a b) by (apply rint_sub_le; auto; lra).
  assert ((mu - c) * RInt (fun t => g1 t ^ 2 * wt K c m t) a b <= (mu - c) * D) by (apply Rmult_le_compat_neg_l; lra).
  pose proof (Hbd g1 g2 a e Hwa). pose proof (Hbd g1 g2 b e Hwb).
  unfold e in *. lra.
Qed.
