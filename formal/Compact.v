(** * A function bounded above and upper semicontinuous (in particular, a
    continuous one) on a nonempty closed subset of the cube [[-1, 1]^N]
    attains its maximum.

    The proof is by bisection: a box is "good" when it holds points of the set
    whose value is within any [e > 0] of the supremum.  Halving one coordinate
    of a good box leaves a good half (excluded middle); halving every
    coordinate in turn [k] times leaves a good box of side [2 (1/2)^k].  The
    boxes are nested, so their lower corners increase to a point [L] (least
    upper bound, [completeness]) lying in every box.  Closedness puts [L] in
    the set and continuity makes it a maximizer.  The choice of the good half
    at each step is made with [sig_not_dec], one of the axioms that Coq's
    classical reals rest on, so no choice axiom is needed.  No project axiom. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz Classical ClassicalDedekindReals.
From LejepaId Require Import Prelude.
Open Scope R_scope.

(** [a <= b + e] for every [e > 0] gives [a <= b]. *)
Lemma le_epsilon_all : forall a b, (forall e, 0 < e -> a <= b + e) -> a <= b.
Proof.
  intros a b H. destruct (Rle_or_lt a b) as [|Hlt]; [assumption|].
  pose proof (H ((a - b) / 2) ltac:(lra)). lra.
Qed.

Lemma INR_le_pow2 : forall k, INR k <= 2 ^ k.
Proof.
  induction k as [|k IH]; [simpl; lra|]. rewrite S_INR. simpl.
  pose proof (pow_R1_Rle 2 k ltac:(lra)). lra.
Qed.

(** The side [2 (1/2)^k] of the boxes becomes as small as one likes. *)
Lemma side_small : forall d, 0 < d -> exists k, 2 * (/ 2) ^ k <= d.
Proof.
  intros d Hd. destruct (archimed_cor1 (d / 2) ltac:(lra)) as [k [Hk Hk0]].
  exists k. rewrite pow_inv.
  assert (HI : 0 < INR k) by (apply lt_0_INR; exact Hk0).
  pose proof (INR_le_pow2 k) as Hp.
  assert (/ 2 ^ k <= / INR k) by (apply Rinv_le_contravar; lra). lra.
Qed.

Definition upd (v : vec) (c : nat) (r : R) : vec := fun d => if Nat.eq_dec d c then r else v d.

Section Compact.
  Variables (N : nat) (K : vec -> Prop) (f : vec -> R).
  Hypothesis K_ne : exists x, K x.
  Hypothesis K_box : forall x, K x -> forall c, (c < N)%nat -> -1 <= x c <= 1.
  Hypothesis K_closed : forall x,
    (forall d, 0 < d -> exists y, K y /\ forall c, (c < N)%nat -> Rabs (x c - y c) <= d) -> K x.
  Hypothesis f_cont : forall x e, 0 < e -> exists d, 0 < d /\ forall y, K y ->
    (forall c, (c < N)%nat -> Rabs (x c - y c) <= d) -> f y <= f x + e.
  Hypothesis f_bound : exists B, forall x, K x -> f x <= B.

  (** A box: lower corner and side lengths. *)
  Definition box : Type := (vec * vec)%type.
  Definition inbox (b : box) (x : vec) : Prop :=
    forall c, (c < N)%nat -> fst b c <= x c <= fst b c + snd b c.
  Definition good (b : box) : Prop :=
    forall e, 0 < e -> exists x, K x /\ inbox b x /\ forall y, K y -> f y <= f x + e.

  Definition lower (c : nat) (b : box) : box := (fst b, upd (snd b) c (snd b c / 2)).
  Definition upper (c : nat) (b : box) : box :=
    (upd (fst b) c (fst b c + snd b c / 2), upd (snd b) c (snd b c / 2)).

  Lemma split_good : forall c b, good b -> good (lower c b) \/ good (upper c b).
  Proof.
    intros c b Hb. destruct (classic (good (lower c b))) as [|HL]; [left; assumption|right].
    intros e He. apply NNPP. intros HU. apply HL. intros e' He'.
    destruct (Hb (Rmin e e') (Rmin_pos _ _ He He')) as [x [Hx [Hin Hmax]]].
    pose proof (Rmin_l e e'). pose proof (Rmin_r e e').
    destruct (Rle_or_lt (x c) (fst b c + snd b c / 2)) as [Hle|Hgt].
    - exists x. split; [exact Hx|]. split.
      + intros d Hd. unfold lower, upd; simpl. destruct (Nat.eq_dec d c) as [->|]; [|apply Hin, Hd].
        pose proof (Hin c Hd). lra.
      + intros y Hy. pose proof (Hmax y Hy). lra.
    - exfalso. apply HU. exists x. split; [exact Hx|]. split.
      + intros d Hd. unfold upper, upd; simpl. destruct (Nat.eq_dec d c) as [->|]; [|apply Hin, Hd].
        pose proof (Hin c Hd). lra.
      + intros y Hy. pose proof (Hmax y Hy). lra.
  Qed.

  (** Keep the lower half when it is good, the upper one otherwise. *)
  Definition halve (c : nat) (b : box) : box :=
    if sig_not_dec (good (lower c b)) then lower c b else upper c b.

  Lemma halve_good : forall c b, good b -> good (halve c b).
  Proof.
    intros c b Hb. unfold halve. destruct (sig_not_dec (good (lower c b))) as [H|H].
    - apply NNPP, H.
    - destruct (split_good c b Hb); [contradiction | assumption].
  Qed.

  Lemma halve_side : forall c b, snd (halve c b) = upd (snd b) c (snd b c / 2).
  Proof. intros c b. unfold halve. destruct (sig_not_dec _); reflexivity. Qed.

  (** Halving shrinks the box: lower corners go up, upper corners down.
      ([unfold vec] below: the components of a box show up at type [vec] or
      [nat -> R], and [lra] only identifies syntactically equal atoms.) *)
  Lemma halve_nested : forall c b d, 0 <= snd b d ->
    fst b d <= fst (halve c b) d /\ fst (halve c b) d + snd (halve c b) d <= fst b d + snd b d /\
    0 <= snd (halve c b) d.
  Proof.
    intros c b d Hw. rewrite halve_side. unfold halve, lower, upper, upd.
    destruct (sig_not_dec _); simpl; destruct (Nat.eq_dec d c) as [->|]; unfold vec in *; repeat split; lra.
  Qed.

  Fixpoint refine (m : nat) (b : box) : box :=
    match m with O => b | S m' => halve m' (refine m' b) end.

  Lemma refine_good : forall m b, good b -> good (refine m b).
  Proof. induction m; intros b Hb; simpl; [exact Hb | apply halve_good, IHm, Hb]. Qed.

  Lemma refine_side : forall m b c, snd (refine m b) c = if lt_dec c m then snd b c / 2 else snd b c.
  Proof.
    induction m as [|m IH]; intros b c; simpl; [destruct (lt_dec c 0); [lia | reflexivity]|].
    rewrite halve_side. unfold upd. rewrite !IH.
    repeat match goal with |- context [if ?t then _ else _] => destruct t end; subst; try lia; reflexivity.
  Qed.

  Lemma refine_nested : forall m b d, 0 <= snd b d ->
    fst b d <= fst (refine m b) d /\ fst (refine m b) d + snd (refine m b) d <= fst b d + snd b d /\
    0 <= snd (refine m b) d.
  Proof.
    induction m as [|m IH]; intros b d Hw; simpl; [unfold vec in *; repeat split; lra|].
    destruct (IH b d Hw) as [H1 [H2 H3]]. destruct (halve_nested m (refine m b) d H3) as [H4 [H5 H6]]. unfold vec in *; repeat split; lra.
  Qed.

  Definition start : box := (fun _ => -1, fun _ => 2).
  Fixpoint boxes (k : nat) : box := match k with O => start | S k' => refine N (boxes k') end.

  Lemma boxes_side : forall k c, (c < N)%nat -> snd (boxes k) c = 2 * (/ 2) ^ k.
  Proof.
    induction k as [|k IH]; intros c Hc; simpl; [unfold start; simpl; ring|].
    rewrite refine_side. destruct (lt_dec c N); [|lia]. rewrite IH by exact Hc. field.
  Qed.

  Lemma boxes_side_nonneg : forall k d, 0 <= snd (boxes k) d.
  Proof.
    induction k as [|k IH]; intros d; simpl; [unfold start; simpl; lra|].
    apply (refine_nested N (boxes k) d (IH d)).
  Qed.

  Let lo k c := fst (boxes k) c.
  Let hi k c := fst (boxes k) c + snd (boxes k) c.

  Lemma boxes_mono : forall j k c, (j <= k)%nat -> lo j c <= lo k c /\ hi k c <= hi j c.
  Proof.
    intros j k c Hjk. induction Hjk as [|k Hjk IH]; [unfold lo, hi, vec in *; split; lra|].
    destruct (refine_nested N (boxes k) c (boxes_side_nonneg k c)) as [H1 [H2 _]].
    unfold lo, hi, vec in *; simpl. split; lra.
  Qed.

  Lemma lo_le_hi : forall j k c, lo j c <= hi k c.
  Proof.
    intros j k c. pose proof (boxes_side_nonneg j c). pose proof (boxes_side_nonneg k c).
    destruct (le_lt_dec j k) as [Hjk|Hjk].
    - destruct (boxes_mono j k c Hjk) as [H1 H2]. unfold lo, hi, vec in *; lra.
    - destruct (boxes_mono k j c ltac:(lia)) as [H1 H2]. unfold lo, hi, vec in *; lra.
  Qed.

  Let lo_bound : forall c, bound (fun r => exists k, r = lo k c).
  Proof. intros c. exists (hi O c). intros r [k ->]. apply lo_le_hi. Qed.

  Let lo_ne : forall c, exists r, exists k, r = lo k c.
  Proof. intros c. exists (lo O c), O. reflexivity. Qed.

  (** The common point of the boxes: the least upper bound of the lower corners. *)
  Definition limit_point : vec := fun c => proj1_sig (completeness _ (lo_bound c) (lo_ne c)).

  Lemma limit_in_boxes : forall k, inbox (boxes k) limit_point.
  Proof.
    intros k c _. unfold limit_point. destruct (completeness _ _ _) as [l [Hub Hlub]]. simpl.
    split; [apply Hub; exists k; reflexivity|].
    apply Hlub. intros r [j ->]. apply lo_le_hi.
  Qed.

  Lemma boxes_good : forall k, good (boxes k).
  Proof.
    induction k as [|k IH]; simpl; [|apply refine_good, IH].
    destruct f_bound as [B HB].
    destruct (completeness (fun r => exists x, K x /\ r = f x)) as [s [Hub Hlub]].
    { exists B. intros r [x [Hx ->]]. apply HB, Hx. }
    { destruct K_ne as [x Hx]. exists (f x), x. split; [exact Hx | reflexivity]. }
    intros e He. apply NNPP. intros Hno. assert (Hs : s <= s - e); [|lra].
    apply Hlub. intros r [x [Hx ->]]. destruct (Rle_or_lt (f x) (s - e)) as [|Hlt]; [assumption|].
    exfalso. apply Hno. exists x. split; [exact Hx|]. split.
    - intros c Hc. unfold start; simpl. pose proof (K_box x Hx c Hc). lra.
    - intros y Hy. pose proof (Hub (f y) (ex_intro _ y (conj Hy eq_refl))). lra.
  Qed.

  (** A point of a good box of side at most [d] is within [d] of the limit point. *)
  Lemma near_limit : forall d e, 0 < d -> 0 < e -> exists x, K x /\
    (forall c, (c < N)%nat -> Rabs (limit_point c - x c) <= d) /\ forall y, K y -> f y <= f x + e.
  Proof.
    intros d e Hd He. destruct (side_small d Hd) as [k Hk].
    destruct (boxes_good k e He) as [x [Hx [Hin Hmax]]]. exists x. split; [exact Hx|]. split; [|exact Hmax].
    intros c Hc. pose proof (Hin c Hc). pose proof (limit_in_boxes k c Hc). rewrite boxes_side in * by exact Hc.
    apply Rabs_le. lra.
  Qed.

  Theorem compact_max : exists x, K x /\ forall y, K y -> f y <= f x.
  Proof.
    exists limit_point. split.
    - apply K_closed. intros d Hd. destruct (near_limit d 1 Hd ltac:(lra)) as [x [Hx [Hnear _]]].
      exists x. split; assumption.
    - intros y Hy. apply le_epsilon_all. intros e He.
      destruct (f_cont limit_point (e / 2) ltac:(lra)) as [d [Hd Hc]].
      destruct (near_limit d (e / 2) Hd ltac:(lra)) as [x [Hx [Hnear Hmax]]].
      pose proof (Hc x Hx Hnear). pose proof (Hmax y Hy). lra.
  Qed.
End Compact.
