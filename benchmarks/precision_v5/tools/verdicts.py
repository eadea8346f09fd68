"""Verdicts of corpus v5, by worklist row index; `python tools/verdicts.py` writes review.json."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
V = {}


def put(idxs, verdict, reason):
    for i in idxs if isinstance(idxs, (list, tuple, range)) else [idxs]:
        assert i not in V, i
        V[i] = (verdict, reason)


JAXSIM_STATIC = (
    "FP: static pytree metadata read as traced: `model.dofs()`/`number_of_links()`/"
    "`number_of_joints()` read jax_dataclasses `Static[...]` fields (JointModel.joint_dofs, "
    "KinDynParameters.link_names, joint_names), which are pytree aux data and concrete Python "
    "ints under jit/vmap (repros/jaxsim_static_fields.py)"
)
put(list(range(44, 72)), "FP", JAXSIM_STATIC)
put(38, "FP", JAXSIM_STATIC + "; `if model.number_of_links() > 1` is a Python bool")
put(39, "FP", JAXSIM_STATIC + "; `has_joints = model.number_of_joints() > 0` is a Python bool")


if __name__ == "__main__":
    w = json.load(open(os.path.join(HERE, "..", "worklist.json")))["rows"]
    out = []
    for i, r in enumerate(w):
        if i not in V:
            continue
        v, why = V[i]
        out.append(
            dict(
                repo=r["repo"],
                path=r["path"],
                line=r["line"],
                cell=r["cell"],
                code=r["code"],
                confidence=r["conf"],
                selection=r["selection"],
                verdict=v,
                reason=why,
                reviewed="full",
                in_sample=r["in_sample"],
                row=i,
            )
        )
    json.dump(out, open(os.path.join(HERE, "..", "review.json"), "w"), indent=1)
    todo = [i for i, r in enumerate(w) if r["in_sample"] and i not in V]
    print(len(out), "reviewed;", len(todo), "to go:", todo)
