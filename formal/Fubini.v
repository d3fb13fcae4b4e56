(** * Fubini's theorem on a rectangle, for continuous functions.

    Coquelicot's proper Riemann integral [RInt] of a function of two
    variables can be taken in either order: for [f] continuous on R^2
    ([continuity_2d_pt f x y] at every point),
    [int_a^b int_c^d f x y dy dx = int_c^d int_a^b f x y dx dy]
    ([fubini_rect]).  Proof:
    - [param_cont]: a parametric integral [u => int_c^d f u t dt] is
      continuous (uniform continuity of [f] on a compact strip,
      Coquelicot's [uniform_continuity_2d_1d']);
    - [G b = int_c^d int_a^b f x t dx dt] has derivative
      [int_c^d f b t dt] in [b] (differentiation under the integral sign,
      Coquelicot's [is_derive_RInt_param]);
    - so [G b - G a = int_a^b int_c^d f x t dt dx] ([is_RInt_derive]), and
      [G a = 0].
    No axiom. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra.
Open Scope R_scope.

(** Continuity by epsilon and delta. *)
Lemma cont_eps : forall (g : R -> R) x,
  (forall eps : posreal, exists delta : posreal, forall y, Rabs (y - x) < delta -> Rabs (g y - g x) < eps) ->
  continuous g x.
Proof.
  intros g x H. apply continuity_pt_filterlim. intros eps Heps.
  destruct (H (mkposreal eps Heps)) as [d Hd]. exists d. split; [apply cond_pos|].
  intros y [_ Hy]. unfold R_dist in *. simpl in *. apply Hd. exact Hy.
Qed.

(** Continuity in one variable from continuity in two. *)
Lemma cont2d_1 : forall f x y, continuity_2d_pt f x y -> continuous (fun u => f u y) x.
Proof.
  intros f x y H. apply cont_eps. intros eps. destruct (H eps) as [d Hd]. exists d.
  intros u Hu. apply Hd; [exact Hu|]. rewrite Rminus_eq_0, Rabs_R0. apply cond_pos.
Qed.

Lemma cont2d_swap : forall f x y, continuity_2d_pt f x y -> continuity_2d_pt (fun u v => f v u) y x.
Proof.
  intros f x y H eps. destruct (H eps) as [d Hd]. exists d. intros u v Hu Hv. apply Hd; assumption.
Qed.

Lemma cont2d_2 : forall f x y, continuity_2d_pt f x y -> continuous (fun v => f x v) y.
Proof. intros f x y H. exact (cont2d_1 (fun u v => f v u) y x (cont2d_swap f x y H)). Qed.

Lemma ex_RInt_cont2d_1 : forall f, (forall x y, continuity_2d_pt f x y) ->
  forall y a b, ex_RInt (fun x => f x y) a b.
Proof. intros f Hf y a b. apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _. apply cont2d_1, Hf. Qed.

Lemma ex_RInt_cont2d_2 : forall f, (forall x y, continuity_2d_pt f x y) ->
  forall x a b, ex_RInt (fun y => f x y) a b.
Proof. intros f Hf x a b. apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _. apply cont2d_2, Hf. Qed.

(** A parametric integral of a continuous function is continuous in the
    parameter. *)
Lemma param_cont : forall f, (forall x y, continuity_2d_pt f x y) ->
  forall c d u0, continuous (fun u => RInt (fun t => f u t) c d) u0.
Proof.
  intros f Hf c d u0. apply cont_eps. intros eps.
  set (e := eps / (Rabs (d - c) + 1)).
  assert (He : 0 < e) by (unfold e; apply Rdiv_lt_0_compat; [apply cond_pos | pose proof (Rabs_pos (d - c)); lra]).
  destruct (uniform_continuity_2d_1d' f (Rmin c d) (Rmax c d) u0 (fun x _ => Hf u0 x) (mkposreal e He))
    as [delta Hd].
  exists delta. intros u Hu.
  assert (Hb : forall t, Rmin c d <= t <= Rmax c d -> norm (minus (f u t) (f u0 t)) <= e).
  { intros t Ht. apply Rlt_le. simpl in Hd.
    apply (Hd t u0 t u Ht); [| exact Ht | | rewrite Rminus_eq_0, Rabs_R0; apply cond_pos].
    - pose proof (cond_pos delta). lra.
    - apply Rabs_lt_between' in Hu. lra. }
  assert (I1 := ex_RInt_cont2d_2 f Hf u c d). assert (I0 := ex_RInt_cont2d_2 f Hf u0 c d).
  pose proof (norm_RInt_le_const_abs (fun t => minus (f u t) (f u0 t)) c d _ e Hb
                (is_RInt_minus _ _ c d _ _ (RInt_correct _ c d I1) (RInt_correct _ c d I0))) as B.
  change (norm (minus ?a ?b)) with (Rabs (a - b)) in B.
  eapply Rle_lt_trans; [exact B|]. unfold e.
  assert (0 <= Rabs (d - c)) by apply Rabs_pos.
  pose proof (cond_pos eps).
  replace (Rabs (d - c) * (eps / (Rabs (d - c) + 1))) with (eps * (Rabs (d - c) / (Rabs (d - c) + 1)))
    by (field; lra).
  assert (Rabs (d - c) / (Rabs (d - c) + 1) < 1) by (apply (Rdiv_lt_1 (Rabs (d - c)) (Rabs (d - c) + 1)); lra).
  nra.
Qed.

(** The derivative of [b => int_c^d int_a^b f x t dx dt]. *)
Lemma fubini_derive : forall f, (forall x y, continuity_2d_pt f x y) ->
  forall a c d b, is_derive (fun b => RInt (fun t => RInt (fun x => f x t) a b) c d) b
                            (RInt (fun t => f b t) c d).
Proof.
  intros f Hf a c d b.
  assert (D : forall u t, is_derive (fun z => RInt (fun x => f x t) a z) u (f u t)).
  { intros u t. apply (is_derive_RInt (fun x => f x t) (fun z => RInt (fun x => f x t) a z) a u).
    - apply filter_forall. intros z. apply (RInt_correct (V := R_CompleteNormedModule)), ex_RInt_cont2d_1, Hf.
    - apply cont2d_1, Hf. }
  assert (DE : forall u t, Derive (fun z => RInt (fun x => f x t) a z) u = f u t)
    by (intros u t; apply is_derive_unique, D).
  assert (H := is_derive_RInt_param (fun z t => RInt (fun x => f x t) a z) c d b).
  rewrite (RInt_ext (fun t => Derive (fun u => RInt (fun x => f x t) a u) b) (fun t => f b t)) in H
    by (intros; apply DE).
  apply H; clear H.
  - apply filter_forall. intros u t _. exists (f u t). apply D.
  - intros t _. apply (continuity_2d_pt_ext f); [intros; symmetry; apply DE | apply Hf].
  - apply filter_forall. intros u. apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros t _.
    apply (param_cont (fun t x => f x t)); [intros x y; apply (cont2d_swap f), Hf].
Qed.

(** Fubini's theorem on a rectangle for a continuous function. *)
Theorem fubini_rect : forall (f : R -> R -> R), (forall x y, continuity_2d_pt f x y) ->
  forall a b c d,
  RInt (fun x => RInt (fun y => f x y) c d) a b = RInt (fun y => RInt (fun x => f x y) a b) c d.
Proof.
  intros f Hf a b c d.
  assert (H := is_RInt_derive (fun b => RInt (fun t => RInt (fun x => f x t) a b) c d)
                 (fun u => RInt (fun t => f u t) c d) a b
                 (fun u _ => fubini_derive f Hf a c d u) (fun u _ => param_cont f Hf c d u)).
  apply is_RInt_unique in H. rewrite H.
  rewrite (RInt_ext (fun t => RInt (fun x => f x t) a a) (fun _ => 0)) by (intros; apply (RInt_point (V := R_CompleteNormedModule))).
  rewrite RInt_const. unfold minus, plus, opp, scal. simpl. unfold mult. simpl. ring.
Qed.

(** Both iterated integrals exist. *)
Lemma fubini_rect_ex : forall (f : R -> R -> R), (forall x y, continuity_2d_pt f x y) ->
  forall a b c d,
  ex_RInt (fun x => RInt (fun y => f x y) c d) a b /\ ex_RInt (fun y => RInt (fun x => f x y) a b) c d.
Proof.
  intros f Hf a b c d. split; apply (ex_RInt_continuous (V := R_CompleteNormedModule)); intros z _.
  - apply param_cont, Hf.
  - apply (param_cont (fun t x => f x t)). intros x y. apply (cont2d_swap f), Hf.
Qed.
