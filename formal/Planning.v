(** * Theorem 4: planning in an orthogonally identified latent space
    (docs/model.md, section 9, group 5).

    Finite-horizon planning.  A world has states [S], actions [A], dynamics
    [f : S -> A -> S], a stage cost [c] and a terminal cost [cT].  An encoder
    that identifies the state up to a change of coordinates [phi] (with
    inverse [psi]) sees the pushed-forward dynamics
    [fQ y a = phi (f (psi y) a)].  If the costs are invariant under [phi],
    then for every action sequence the total cost seen by the planner equals
    the true one; hence the minimizers and the optimal values coincide.

    The published development took the two trajectory push-forward facts
    as axioms; here both are proved by induction on the horizon, first for
    any invertible [phi] on a state space with an equivalence (so that
    vectors of [R^n] can be compared coordinatewise), then for an orthogonal
    [Q] on [R^n].  The last section is the stochastic version: finite state
    list, Markov kernel, expected total cost; the pushed-forward kernel is a
    Markov kernel on the latent states and expected costs, minimizers and
    optimal values coincide.  No axiom is used. *)

From Coquelicot Require Import Coquelicot.
Require Import Reals Lra Lia Psatz List.
From LejepaId Require Import Prelude.
Open Scope R_scope.

Section Generic.
  Variables (S A : Type) (eqS : S -> S -> Prop).
  Hypothesis eqS_sym : forall x y, eqS x y -> eqS y x.
  Hypothesis eqS_trans : forall x y z, eqS x y -> eqS y z -> eqS x z.
  Variables (f : S -> A -> S) (c : S -> A -> R) (cT : S -> R) (phi psi : S -> S).
  Hypothesis f_resp : forall x y a, eqS x y -> eqS (f x a) (f y a).
  Hypothesis c_resp : forall x y a, eqS x y -> c x a = c y a.
  Hypothesis cT_resp : forall x y, eqS x y -> cT x = cT y.
  Hypothesis phi_resp : forall x y, eqS x y -> eqS (phi x) (phi y).
  Hypothesis psi_resp : forall x y, eqS x y -> eqS (psi x) (psi y).
  Hypothesis psi_phi : forall x, eqS (psi (phi x)) x.
  (** Costs invariant under the change of coordinates. *)
  Hypothesis c_inv : forall x a, c (phi x) a = c x a.
  Hypothesis cT_inv : forall x, cT (phi x) = cT x.

  (** Total cost of an action sequence from a start state. *)
  Fixpoint total_cost (g : S -> A -> S) (x : S) (acts : list A) : R :=
    match acts with
    | nil => cT x
    | a :: rest => c x a + total_cost g (g x a) rest
    end.

  (** The dynamics seen in the encoder's coordinates. *)
  Definition pushed (y : S) (a : A) : S := phi (f (psi y) a).

  (** Push-forward fact 1 (one step): a state that corresponds to [x] steps to
      a state that corresponds to [f x a]. *)
  Lemma step_push : forall x y a, eqS y (phi x) -> eqS (pushed y a) (phi (f x a)).
  Proof.
    intros x y a H. unfold pushed. apply phi_resp, f_resp.
    apply (eqS_trans _ (psi (phi x))); [apply psi_resp; exact H | apply psi_phi].
  Qed.

  (** Push-forward fact 2 (whole trajectory, by induction on the horizon):
      the cost of every action sequence is the same in both coordinates. *)
  Lemma cost_push : forall acts x y, eqS y (phi x) -> total_cost pushed y acts = total_cost f x acts.
  Proof.
    induction acts as [|a rest IH]; intros x y H; simpl.
    - rewrite (cT_resp _ _ H). apply cT_inv.
    - rewrite (c_resp _ _ a H), c_inv. f_equal. apply IH, step_push, H.
  Qed.

  Theorem planning_cost_equal :
    forall x acts, total_cost pushed (phi x) acts = total_cost f x acts.
  Proof.
    intros x acts. apply cost_push.
    (* reflexivity of [eqS] at [phi x], from symmetry and transitivity *)
    apply (eqS_trans _ (phi (psi (phi x)))); [apply eqS_sym |]; apply phi_resp, psi_phi.
  Qed.

  Definition is_minimizer (g : S -> A -> S) (x : S) (T : nat) (acts : list A) : Prop :=
    length acts = T /\ forall acts', length acts' = T -> total_cost g x acts <= total_cost g x acts'.

  Definition is_opt_value (g : S -> A -> S) (x : S) (T : nat) (v : R) : Prop :=
    (exists acts, length acts = T /\ total_cost g x acts = v) /\
    (forall acts, length acts = T -> v <= total_cost g x acts).

  Theorem planning_minimizers_coincide :
    forall x T acts, is_minimizer pushed (phi x) T acts <-> is_minimizer f x T acts.
  Proof.
    intros x T acts. unfold is_minimizer.
    split; intros [Hl Hm]; split; try exact Hl; intros acts' Hl';
      pose proof (Hm acts' Hl'); rewrite !planning_cost_equal in *; assumption.
  Qed.

  Theorem planning_values_coincide :
    forall x T v, is_opt_value pushed (phi x) T v <-> is_opt_value f x T v.
  Proof.
    intros x T v. unfold is_opt_value. split; intros [[acts [Hl Hv]] Hm]; split.
    - exists acts. rewrite <- planning_cost_equal. auto.
    - intros acts' Hl'. rewrite <- planning_cost_equal. auto.
    - exists acts. rewrite planning_cost_equal. auto.
    - intros acts' Hl'. rewrite planning_cost_equal. auto.
  Qed.
End Generic.

(** ** Orthogonal [Q] on [R^n]. *)

Definition transpose (Q : mat) : mat := fun i j => Q j i.

Lemma mapply_resp : forall n A x y, veq n x y -> veq n (mapply n A x) (mapply n A y).
Proof.
  intros n A x y H i Hi. unfold mapply. apply fsum_ext. intros j Hj. rewrite H by exact Hj. reflexivity.
Qed.

(** [Q^T Q = I]: the transpose undoes [Q]. *)
Lemma orthogonal_left_inverse :
  forall n Q x, orthogonal n Q -> veq n (mapply n (transpose Q) (mapply n Q x)) x.
Proof.
  intros n Q x [HQ _] i Hi. unfold mapply, transpose.
  rewrite (fsum_ext n _ (fun j => fsum n (fun k => Q j i * Q j k * x k)))
    by (intros j _; rewrite <- fsum_scal; apply fsum_ext; intros; ring).
  rewrite fsum_swap.
  rewrite (fsum_ext n _ (fun k => kron i k * x k)); [apply fsum_kron; exact Hi|].
  intros k Hk. rewrite <- (HQ i k Hi Hk).
  rewrite <- (Rmult_comm (x k)), <- fsum_scal. apply fsum_ext. intros; ring.
Qed.

Section Orthogonal.
  Variables (n : nat) (Q : mat) (A : Type).
  Hypothesis HQ : orthogonal n Q.
  Variables (f : vec -> A -> vec) (c : vec -> A -> R) (cT : vec -> R).
  (** Dynamics and costs are functions on [R^n]. *)
  Hypothesis f_resp : forall x y a, veq n x y -> veq n (f x a) (f y a).
  Hypothesis c_resp : forall x y a, veq n x y -> c x a = c y a.
  Hypothesis cT_resp : forall x y, veq n x y -> cT x = cT y.
  (** Rotation-invariant costs. *)
  Hypothesis c_inv : forall x a, c (mapply n Q x) a = c x a.
  Hypothesis cT_inv : forall x, cT (mapply n Q x) = cT x.

  Let phi := mapply n Q.
  Let psi := mapply n (transpose Q).
  Let veq_sym : forall x y, veq n x y -> veq n y x.
  Proof. intros x y H i Hi. symmetry. apply H, Hi. Qed.
  Let veq_trans : forall x y z, veq n x y -> veq n y z -> veq n x z.
  Proof. intros x y z H1 H2 i Hi. rewrite H1, H2 by exact Hi. reflexivity. Qed.

  (** Latent dynamics seen through [h = Q z]. *)
  Definition pushed_Q (y : vec) (a : A) : vec := mapply n Q (f (mapply n (transpose Q) y) a).

  Theorem planning_orthogonal_cost :
    forall x acts,
    total_cost vec A c cT pushed_Q (mapply n Q x) acts = total_cost vec A c cT f x acts.
  Proof.
    intros x acts.
    apply (planning_cost_equal vec A (veq n) veq_sym veq_trans f c cT phi psi f_resp c_resp cT_resp
             (mapply_resp n Q) (mapply_resp n (transpose Q))
             (fun x => orthogonal_left_inverse n Q x HQ) c_inv cT_inv).
  Qed.

  Theorem planning_orthogonal_minimizers :
    forall x T acts,
    is_minimizer vec A c cT pushed_Q (mapply n Q x) T acts <-> is_minimizer vec A c cT f x T acts.
  Proof.
    intros x T acts.
    apply (planning_minimizers_coincide vec A (veq n) veq_sym veq_trans f c cT phi psi f_resp
             c_resp cT_resp (mapply_resp n Q) (mapply_resp n (transpose Q))
             (fun x => orthogonal_left_inverse n Q x HQ) c_inv cT_inv).
  Qed.

  Theorem planning_orthogonal_values :
    forall x T v,
    is_opt_value vec A c cT pushed_Q (mapply n Q x) T v <-> is_opt_value vec A c cT f x T v.
  Proof.
    intros x T v.
    apply (planning_values_coincide vec A (veq n) veq_sym veq_trans f c cT phi psi f_resp
             c_resp cT_resp (mapply_resp n Q) (mapply_resp n (transpose Q))
             (fun x => orthogonal_left_inverse n Q x HQ) c_inv cT_inv).
  Qed.
End Orthogonal.

(** ** Stochastic planning: finite state space, Markov kernel, expected total cost.

    The states form a finite list [states]; [P x a x'] is the probability of
    moving from [x] to [x'] under action [a] (a Markov kernel on [states]).
    The expected total cost of an action sequence is computed by the backward
    recursion [J (x, a :: rest) = c x a + sum_x' P x a x' J (x', rest)].  The
    encoder sees the latent states [phi x] and the pushed-forward kernel
    [PQ y a y' = P (psi y) a (psi y')]; it is again a Markov kernel on the
    latent states, and expected costs, minimizers and optimal values
    coincide. *)
Section Stochastic.
  Variables (S A : Type) (states : list S).
  Variables (P : S -> A -> S -> R) (c : S -> A -> R) (cT : S -> R) (phi psi : S -> S).
  Hypothesis psi_phi : forall x, psi (phi x) = x.
  (** Costs invariant under the change of coordinates. *)
  Hypothesis c_inv : forall x a, c (phi x) a = c x a.
  Hypothesis cT_inv : forall x, cT (phi x) = cT x.

  Fixpoint lsum (l : list S) (f : S -> R) : R :=
    match l with
    | nil => 0
    | x :: rest => f x + lsum rest f
    end.

  (** [K] is a Markov kernel on the state list [space]. *)
  Definition markov_kernel (space : list S) (K : S -> A -> S -> R) : Prop :=
    forall x a, In x space -> (forall x', 0 <= K x a x') /\ lsum space (fun x' => K x a x') = 1.

  (** Expected total cost of an action sequence from [x]. *)
  Fixpoint exp_cost (space : list S) (K : S -> A -> S -> R) (x : S) (acts : list A) : R :=
    match acts with
    | nil => cT x
    | a :: rest => c x a + lsum space (fun x' => K x a x' * exp_cost space K x' rest)
    end.

  Definition latent_states : list S := map phi states.
  Definition pushed_kernel (y : S) (a : A) (y' : S) : R := P (psi y) a (psi y').

  Lemma lsum_ext : forall l f g, (forall x, f x = g x) -> lsum l f = lsum l g.
  Proof. induction l as [|x l IH]; intros f g H; simpl; [reflexivity|]. rewrite H, (IH f g H). reflexivity. Qed.

  Lemma lsum_map : forall l f, lsum (map phi l) f = lsum l (fun x => f (phi x)).
  Proof. induction l as [|x l IH]; intros f; simpl; [reflexivity|]. rewrite IH. reflexivity. Qed.

  (** The pushed-forward kernel is a Markov kernel on the latent states. *)
  Theorem pushed_kernel_markov :
    markov_kernel states P -> markov_kernel latent_states pushed_kernel.
  Proof.
    intros HP y a Hy. unfold latent_states in Hy. apply in_map_iff in Hy as [x [<- Hx]].
    destruct (HP x a Hx) as [Hpos Hsum]. split.
    - intros y'. unfold pushed_kernel. rewrite psi_phi. apply Hpos.
    - unfold latent_states. rewrite lsum_map. unfold pushed_kernel. rewrite psi_phi.
      rewrite (lsum_ext _ _ (fun x' => P x a x')); [exact Hsum|]. intros x'. rewrite psi_phi. reflexivity.
  Qed.

  (** Expected costs coincide for every action sequence (induction on the horizon). *)
  Theorem stochastic_cost_equal :
    forall acts x, exp_cost latent_states pushed_kernel (phi x) acts = exp_cost states P x acts.
  Proof.
    induction acts as [|a rest IH]; intros x; simpl; [apply cT_inv|].
    rewrite c_inv. f_equal. unfold latent_states. rewrite lsum_map. apply lsum_ext. intros x'.
    unfold pushed_kernel. rewrite !psi_phi. f_equal. apply IH.
  Qed.

  Definition is_stoch_minimizer (space : list S) (K : S -> A -> S -> R) (x : S) (T : nat)
      (acts : list A) : Prop :=
    length acts = T /\
    forall acts', length acts' = T -> exp_cost space K x acts <= exp_cost space K x acts'.

  Definition is_stoch_value (space : list S) (K : S -> A -> S -> R) (x : S) (T : nat) (v : R) : Prop :=
    (exists acts, length acts = T /\ exp_cost space K x acts = v) /\
    (forall acts, length acts = T -> v <= exp_cost space K x acts).

  Theorem stochastic_minimizers_coincide :
    forall x T acts,
    is_stoch_minimizer latent_states pushed_kernel (phi x) T acts <-> is_stoch_minimizer states P x T acts.
  Proof.
    intros x T acts. unfold is_stoch_minimizer.
    split; intros [Hl Hm]; split; try exact Hl; intros acts' Hl';
      pose proof (Hm acts' Hl'); rewrite !stochastic_cost_equal in *; assumption.
  Qed.

  Theorem stochastic_values_coincide :
    forall x T v, is_stoch_value latent_states pushed_kernel (phi x) T v <-> is_stoch_value states P x T v.
  Proof.
    intros x T v. unfold is_stoch_value. split; intros [[acts [Hl Hv]] Hm]; split.
    - exists acts. rewrite <- stochastic_cost_equal. auto.
    - intros acts' Hl'. rewrite <- stochastic_cost_equal. auto.
    - exists acts. rewrite stochastic_cost_equal. auto.
    - intros acts' Hl'. rewrite stochastic_cost_equal. auto.
  Qed.
End Stochastic.
