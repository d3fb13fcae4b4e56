"""Dependencies asked of Coq itself: an Ltac2 walk over the kernel terms.

Reading names out of printed text with a regular expression misses whatever the
pattern does not foresee (an identifier starting with a non-ASCII letter, a module
name, a notation). Here Coq walks the terms: :data:`PRELUDE` is an Ltac2 program,
run after the project's files are loaded, that takes a statement's type apart with
``Constr.Unsafe.kind`` and collects every global reference in it (constants,
inductive types, constructors), each printed with its full path by ``Env.path``.
From those it follows every project reference (path under ``LejepaId``):

- a constant: its type, and its body when it has one (a ``Definition``, even one
  flagged ``Opaque``: the body is taken by ``cbv`` with delta for that constant
  only; a ``Qed`` proof or a module parameter is followed through its type only);
- an inductive type: its arity, its constructors and their types;
- a constructor: its type.

The output is a graph, one line per edge (``LEJEPA-EDGE src dst``); the statement's
own references are ``LEJEPA-THM k dst`` (and ``LEJEPA-ARG k dst`` for those outside
the head of its conclusion, see :func:`head_free`).

For an assumption the walk also follows every inductive type, of any library, and
every type-level definition of any library (a constant whose type ends in a sort,
such as the standard library's ``DReal := {f : Q -> bool | isLowerCut f}``, taken
through its body as the project's definitions are). It reports
(``LEJEPA-CARRIER j path``) each inductive reached that has a constructor with an
argument of sort ``Prop`` or ``SProp`` (decided by ``Constr.type`` on each argument,
under the earlier ones, inside ``Constr.in_context``), each inductive reached that
has no constructor at all (``LEJEPA-EMPTY j path``: a value of ``nat -> Empty_set``
proves anything), and ``LEJEPA-PROPSORT j`` when the sort ``Prop`` occurs in the
type or in a project definition it reaches: a parameter of such a type can carry a
proof.

A term with a primitive projection prints ``LEJEPA-PROJ``: the walk cannot name the
projection's record in Coq 8.16, so the checker refuses it instead of missing it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

#: The Ltac2 walker (loaded after the project's ``Require`` lines).
PRELUDE = r"""
From Ltac2 Require Import Ltac2.
Ltac2 lj_path (r : Std.reference) : message :=
  match Env.path r with
  | [] => Message.of_string "?"
  | x :: xs => List.fold_left (fun m i => Message.concat m
      (Message.concat (Message.of_string ".") (Message.of_ident i))) xs (Message.of_ident x)
  end.
Ltac2 lj_same (a : Std.reference) (b : Std.reference) : bool :=
  let pa := Env.path a in
  let pb := Env.path b in
  match Int.equal (List.length pa) (List.length pb) with
  | true => List.for_all2 Ident.equal pa pb
  | false => false
  end.
Ltac2 lj_project (r : Std.reference) : bool :=
  match Env.path r with
  | x :: _ => match Ident.of_string "LejepaId" with Some l => Ident.equal x l | None => false end
  | [] => false
  end.
Ltac2 rec lj_dedup (rs : Std.reference list) : Std.reference list :=
  match rs with
  | [] => []
  | r :: rest => match List.exist (lj_same r) rest with
                 | true => lj_dedup rest
                 | false => r :: lj_dedup rest
                 end
  end.
Ltac2 lj_is_prop (s : constr) : bool :=
  let s := Std.eval_hnf s in
  match Constr.equal s 'Prop with true => true | false => Constr.equal s 'SProp end.
Ltac2 rec lj_refs (st : bool ref) (c : constr) (acc : Std.reference list)
    : Std.reference list :=
  let lj_refs := lj_refs st in
  let arr a acc := Array.fold_left (fun acc x => lj_refs x acc) acc a in
  let bt b := Constr.Binder.type b in
  match Constr.Unsafe.kind c with
  | Constr.Unsafe.Constant k _ => Std.ConstRef k :: acc
  | Constr.Unsafe.Ind i _ => Std.IndRef i :: acc
  | Constr.Unsafe.Constructor k _ => Std.ConstructRef k :: acc
  | Constr.Unsafe.Sort _ =>
      (match lj_is_prop c with true => st.(contents) := true | false => () end); acc
  | Constr.Unsafe.Cast a _ b => lj_refs a (lj_refs b acc)
  | Constr.Unsafe.Prod b body => lj_refs (bt b) (lj_refs body acc)
  | Constr.Unsafe.Lambda b body => lj_refs (bt b) (lj_refs body acc)
  | Constr.Unsafe.LetIn b v body => lj_refs (bt b) (lj_refs v (lj_refs body acc))
  | Constr.Unsafe.App f args => lj_refs f (arr args acc)
  | Constr.Unsafe.Case _ ret _ scrut br => lj_refs ret (lj_refs scrut (arr br acc))
  | Constr.Unsafe.Fix _ _ bs bodies => arr (Array.map bt bs) (arr bodies acc)
  | Constr.Unsafe.CoFix _ bs bodies => arr (Array.map bt bs) (arr bodies acc)
  | Constr.Unsafe.Proj _ a => Message.print (Message.of_string "LEJEPA-PROJ"); lj_refs a acc
  | Constr.Unsafe.Evar _ args => arr args acc
  | Constr.Unsafe.Array _ elems d t => arr elems (lj_refs d (lj_refs t acc))
  | _ => acc
  end.
Ltac2 rec lj_arity_sort (t : constr) : bool :=
  match Constr.Unsafe.kind t with
  | Constr.Unsafe.Prod _ body => lj_arity_sort body
  | Constr.Unsafe.Sort _ => true
  | _ => false
  end.
Ltac2 lj_type_family (r : Std.reference) : bool :=
  match r with
  | Std.ConstRef _ => lj_arity_sort (Constr.type (Env.instantiate r))
  | _ => false
  end.
Ltac2 lj_constructors (i : inductive) : constr list :=
  let d := Ind.data i in
  List.init (Ind.nconstructors d)
    (fun j => Env.instantiate (Std.ConstructRef (Ind.get_constructor d j))).
Ltac2 lj_node_terms (r : Std.reference) : constr list :=
  let t := Env.instantiate r in
  let ty := Constr.type t in
  match r with
  | Std.ConstRef _ =>
      match match lj_project r with true => true | false => lj_type_family r end with
      | true =>
          (* delta for this constant only: its body if it has one (an Opaque flag
             does not stop cbv), the constant itself for a Qed proof *)
          let body := Std.eval_cbv { Std.rBeta := false; Std.rMatch := false;
            Std.rFix := false; Std.rCofix := false; Std.rZeta := false;
            Std.rDelta := false; Std.rConst := [r] } t in
          match Constr.equal body t with true => [ty] | false => [ty; body] end
      | false => [ty]
      end
  | Std.IndRef i => ty :: lj_constructors i
  | _ => [ty]
  end.
Ltac2 lj_print (tag : message) (rs : Std.reference list) :=
  List.iter (fun r => Message.print (Message.concat tag (lj_path r))) rs.
Ltac2 lj_tag (s : string) (m : message) : message :=
  Message.concat (Message.of_string s)
    (Message.concat (Message.of_string " ") (Message.concat m (Message.of_string " "))).
Ltac2 rec lj_follow (st : bool ref) (seen : Std.reference list) (todo : Std.reference list)
    (want : Std.reference -> bool) : Std.reference list :=
  let lj_follow := lj_follow st in
  match todo with
  | [] => seen
  | r :: rest =>
    match List.exist (lj_same r) seen with
    | true => lj_follow seen rest want
    | false =>
      match want r with
      | false => lj_follow (r :: seen) rest want
      | true =>
        let before := st.(contents) in
        let ds := lj_dedup (List.fold_left (fun acc c => lj_refs st c acc) (lj_node_terms r) []) in
        (match lj_project r with true => () | false => st.(contents) := before end);
        Message.print (lj_tag "LEJEPA-NODE" (lj_path r));
        lj_print (lj_tag "LEJEPA-EDGE" (lj_path r)) ds;
        lj_follow (r :: seen) (List.append ds rest) want
      end
    end
  end.
Ltac2 lj_statement (seen : Std.reference list ref) (k : string) (t : constr) :=
  let st := { contents := false } in
  let all := lj_dedup (lj_refs st t []) in
  let args := match Constr.Unsafe.kind t with
    | Constr.Unsafe.App _ a => lj_dedup (Array.fold_left (fun acc x => lj_refs st x acc) [] a)
    | Constr.Unsafe.Constant _ _ => []
    | Constr.Unsafe.Ind _ _ => []
    | _ => all
    end in
  lj_print (lj_tag "LEJEPA-THM" (Message.of_string k)) all;
  lj_print (lj_tag "LEJEPA-ARG" (Message.of_string k)) args;
  seen.(contents) := lj_follow st (seen.(contents)) all lj_project.
Ltac2 rec lj_prop_field (t : constr) : bool :=
  match Constr.Unsafe.kind t with
  | Constr.Unsafe.Prod b body =>
      let a := Constr.Binder.type b in
      match lj_is_prop (Constr.type a) with
      | true => true
      | false =>
        let found := { contents := false } in
        let x := Fresh.in_goal @lj_x in
        let _ := Constr.in_context x a (fun () =>
          found.(contents) := lj_prop_field (Constr.Unsafe.substnl [Control.hyp x] 0 body);
          exact I) in
        found.(contents)
      end
  | _ => false
  end.
Ltac2 lj_carrier (r : Std.reference) : bool :=
  match r with
  | Std.IndRef i => List.exist (fun c => lj_prop_field (Constr.type c)) (lj_constructors i)
  | _ => false
  end.
Ltac2 lj_empty (r : Std.reference) : bool :=
  match r with
  | Std.IndRef i => Int.equal (Ind.nconstructors (Ind.data i)) 0
  | _ => false
  end.
Ltac2 lj_project_or_inductive (r : Std.reference) : bool :=
  match lj_project r with
  | true => true
  | false => match r with Std.IndRef _ => true | _ => lj_type_family r end
  end.
Ltac2 lj_assumption (k : string) (t : constr) :=
  let st := { contents := false } in
  let seen := lj_follow st [] (lj_refs st t []) lj_project_or_inductive in
  List.iter (fun r => match lj_carrier r with
    | true => Message.print (Message.concat (lj_tag "LEJEPA-CARRIER" (Message.of_string k))
                                            (lj_path r))
    | false => () end) seen;
  List.iter (fun r => match lj_empty r with
    | true => Message.print (Message.concat (lj_tag "LEJEPA-EMPTY" (Message.of_string k))
                                            (lj_path r))
    | false => () end) seen;
  match st.(contents) with
  | true => Message.print (lj_tag "LEJEPA-PROPSORT" (Message.of_string k))
  | false => ()
  end.
"""


def statements_script(names: dict[str, str]) -> list[str]:
    """Lines that walk the type of each named constant (``{key: name}``)."""
    calls = [f'lj_statement seen "{k}" (Constr.type constr:(@{n}))' for k, n in names.items()]
    run = "Ltac2 Eval (let seen := { contents := [] } in " + "; ".join(calls or ["()"]) + ")."
    return [PRELUDE, "Goal True.", run, "Abort."]


def assumptions_script(names: dict[str, str]) -> list[str]:
    """Lines that walk the type of each assumption (``{key: name}``) for proof carriers."""
    body = [
        f'Ltac2 Eval lj_assumption "{k}" (Constr.type constr:(@{n})).' for k, n in names.items()
    ]
    return [PRELUDE, "Goal True.", *body, "Abort."]


def is_project(path: str, library: str) -> bool:
    """A full path under the project's library."""
    return path.startswith(library + ".")


@dataclass
class Graph:
    """What the walk printed: each statement's references and the project graph."""

    statement: dict[str, list[str]] = field(default_factory=dict)  # key -> refs of its type
    outside_head: dict[str, list[str]] = field(default_factory=dict)  # key -> refs off the head
    edges: dict[str, list[str]] = field(default_factory=dict)  # project node -> refs
    carriers: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    prop_sort: set[str] = field(default_factory=set)
    empties: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    projections: bool = False
    odd: list[str] = field(default_factory=list)

    def merge(self, other: Graph) -> None:
        """Add the nodes and edges of another walk."""
        for node, dsts in other.edges.items():
            self.edges.setdefault(node, dsts)
        self.projections |= other.projections

    def closure(self, refs: list[str], library: str) -> list[str]:
        """Project references reachable from ``refs`` (themselves included), sorted."""
        seen: set[str] = set()
        todo = [r for r in refs if is_project(r, library)]
        while todo:
            d = todo.pop()
            if d not in seen:
                seen.add(d)
                todo += [r for r in self.edges.get(d, []) if is_project(r, library)]
        return sorted(seen)

    def internal(self, node: str, library: str) -> list[str]:
        """Project references of a project node, itself excluded, sorted."""
        return sorted({r for r in self.edges.get(node, []) if is_project(r, library)} - {node})

    def external(self, node: str, library: str) -> list[str]:
        """References of a project node that lie outside the project, sorted."""
        return sorted({r for r in self.edges.get(node, []) if not is_project(r, library)})


def parse(output: str) -> Graph:
    """The :class:`Graph` of a walker run's standard output."""
    g = Graph()
    for raw in output.splitlines():
        line = raw.strip()
        if not line.startswith("LEJEPA-") or line.startswith("- :"):
            continue
        tag, _, rest = line.partition(" ")
        parts = rest.split()
        if tag == "LEJEPA-PROJ":
            g.projections = True
        elif tag == "LEJEPA-NODE" and len(parts) == 1:
            g.edges.setdefault(parts[0], [])
        elif tag == "LEJEPA-EDGE" and len(parts) == 2:
            g.edges.setdefault(parts[0], []).append(parts[1])
        elif tag in ("LEJEPA-THM", "LEJEPA-ARG") and len(parts) == 2:
            target = g.statement if tag == "LEJEPA-THM" else g.outside_head
            target.setdefault(parts[0], []).append(parts[1])
        elif tag == "LEJEPA-CARRIER" and len(parts) == 2:
            g.carriers[parts[0]].append(parts[1])
        elif tag == "LEJEPA-EMPTY" and len(parts) == 2:
            g.empties[parts[0]].append(parts[1])
        elif tag == "LEJEPA-PROPSORT" and len(parts) == 1:
            g.prop_sort.add(parts[0])
        else:
            g.odd.append(line)
    return g
