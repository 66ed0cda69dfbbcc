#!/usr/bin/env python3
"""Synthetic skeletons that exercise every path, physics and sequence mode."""
import json, math, os, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

def header(name, ref=100):
    return {"hash": name, "spine": "4.2.22", "x": -200, "y": -200, "width": 400, "height": 400,
            "referenceScale": ref, "fps": 30, "images": "", "audio": ""}

def bezier(c):
    return c  # [cx1, cy1, cx2, cy2]

# ---------------------------------------------------------------- paths
def path_skeleton():
    bones = [{"name": "root"}]
    slots = []
    skin = {}
    constraints = []
    anim_bones = {}
    anim_path = {}
    deform = {}

    def open_path(points, closed):
        # points: list of (x, y); handles placed along neighbours
        verts = []
        n = len(points)
        for i, (x, y) in enumerate(points):
            px, py = points[i - 1] if i > 0 else (x - 40, y - 10)
            nx, ny = points[(i + 1) % n] if (i + 1 < n or closed) else (x + 40, y + 10)
            hx, hy = (nx - px) * 0.2, (ny - py) * 0.2
            verts += [x - hx, y - hy, x, y, x + hx, y + hy]
        # cumulative chord lengths as a plausible lengths table
        lengths = []
        total = 0
        m = n if closed else n - 1
        for i in range(m):
            (x1, y1), (x2, y2) = points[i], points[(i + 1) % n]
            total += math.hypot(x2 - x1, y2 - y1) * 1.05
            lengths.append(round(total, 3))
        while len(lengths) < n:
            lengths.append(round(total, 3))
        return verts, lengths

    configs = [
        # name, positionMode, spacingMode, rotateMode, constantSpeed, closed, offsetRotation, position, spacing, mixes, weighted
        ("a", "fixed", "fixed", "tangent", False, False, 0, 20, 25, (1, 1, 1), False),
        ("b", "percent", "proportional", "chain", True, True, 0, 0.1, 0.8, (1, 1, 1), False),
        ("c", "fixed", "percent", "chainScale", False, True, 30, 15, 0.15, (1, 1, 1), False),
        ("d", "percent", "length", "chain", True, False, 0, 0.05, 4, (0.7, 0.5, 0.3), True),
        ("e", "percent", "fixed", "tangent", True, False, -45, 0.2, 30, (0.9, 1, 0.6), False),
        ("f", "fixed", "length", "chainScale", False, False, 0, 10, -3, (1, 0.8, 1), True),
        ("g", "percent", "proportional", "chainScale", False, False, 0, 0, 1, (0.5, 1, 1), False),
        ("h", "fixed", "fixed", "chain", True, True, 12, -30, 20, (1, 1, 1), False),
    ]
    for k, (name, pm, sm, rm, cs, closed, off, pos, sp, mixes, weighted) in enumerate(configs):
        ox = -150 + (k % 4) * 100
        oy = -120 + (k // 4) * 160
        holder = "holder-" + name
        bones.append({"name": holder, "parent": "root", "x": ox, "y": oy, "rotation": 5 * k})
        # control bones for weighted paths
        ctrl = []
        if weighted:
            for j in range(2):
                cn = "ctrl-%s%d" % (name, j)
                bones.append({"name": cn, "parent": holder, "x": 30 * j, "y": 40 * j, "rotation": 10 * j})
                ctrl.append(cn)
        chain_root = "chain-%s0" % name
        lengths = [18, 0, 22, 15, 20] if sm in ("proportional", "length") else [18, 12, 22, 15, 20]
        prev = holder
        chain = []
        for j, ln in enumerate(lengths):
            bn = "chain-%s%d" % (name, j)
            b = {"name": bn, "parent": prev, "length": ln, "x": (0 if j == 0 else lengths[j - 1]), "rotation": (20 if j == 0 else -8)}
            if j == 3 and name == "c":
                b["inherit"] = "noScale"
            bones.append(b)
            chain.append(bn)
            prev = bn
        slot = "path-" + name
        slots.append({"name": slot, "bone": holder, "attachment": slot})
        pts = [(0, 0), (40, 50), (90, 20), (120, 70)] if not closed else [(0, 0), (60, 40), (100, 0), (50, -40)]
        verts, lens = open_path(pts, closed)
        att = {"type": "path", "closed": closed, "constantSpeed": cs, "lengths": lens, "vertexCount": len(pts) * 3}
        if weighted:
            wv = []
            for i in range(len(pts) * 3):
                x, y = verts[2 * i], verts[2 * i + 1]
                bidx = [b["name"] for b in bones].index(ctrl[0])
                cidx = [b["name"] for b in bones].index(ctrl[1])
                w = (i % 4) / 4.0
                if w == 0:
                    wv += [1, bidx, x, y, 1]
                else:
                    wv += [2, bidx, x, y, 1 - w, cidx, x - 30, y - 40, w]
            att["vertices"] = wv
        else:
            att["vertices"] = verts
        skin[slot] = {slot: att}
        c = {"name": "path-" + name, "order": k, "bones": chain, "target": slot,
             "positionMode": pm, "spacingMode": sm, "rotateMode": rm,
             "rotation": off, "position": pos, "spacing": sp,
             "mixRotate": mixes[0], "mixX": mixes[1], "mixY": mixes[2]}
        constraints.append(c)
        # animation: move the holder, bend weighted controls, key position/spacing/mix
        anim_bones[holder] = {
            "rotate": [{"time": 0, "value": 0, "curve": [0.3, 0, 0.7, 25]}, {"time": 1, "value": 25}, {"time": 2, "value": -15}],
            "translate": [{"time": 0}, {"time": 1.2, "x": 10, "y": -20}, {"time": 2}],
            "scale": [{"time": 0}, {"time": 1, "x": 1.3, "y": 0.8}, {"time": 2}],
        }
        if weighted:
            anim_bones[ctrl[1]] = {"rotate": [{"time": 0}, {"time": 1, "value": 40}, {"time": 2}],
                                   "translate": [{"time": 0}, {"time": 1, "x": 15, "y": 25}, {"time": 2}]}
        keys = {}
        if pm == "percent":
            keys["position"] = [{"time": 0, "value": pos}, {"time": 0.7, "value": -0.3}, {"time": 1.4, "value": 1.2, "curve": "stepped"}, {"time": 1.8, "value": 0.5}]
        else:
            keys["position"] = [{"time": 0, "value": pos}, {"time": 0.7, "value": -60}, {"time": 1.4, "value": 260}, {"time": 1.8, "value": 40}]
        if sm == "percent" or sm == "proportional":
            keys["spacing"] = [{"time": 0.2, "value": sp}, {"time": 1.1, "value": sp * 1.6, "curve": [0.25, sp * 1.2, 0.75, sp * 1.7]}, {"time": 1.9, "value": sp * 0.5}]
        else:
            keys["spacing"] = [{"time": 0.2, "value": sp}, {"time": 1.1, "value": sp * 2 + 5}, {"time": 1.9, "value": -8}]
        # Keys give mixX == mixY: one reference edition reads a path mix key's Y value for X as well
        # (see Tests/ReferenceTraces/README.md), other runtimes and Bonework keep them apart.
        keys["mix"] = [{"time": 0.3, "mixRotate": mixes[0], "mixX": mixes[1], "mixY": mixes[1],
                        "curve": [0.2, mixes[0], 0.6, 0.5, 0.3, mixes[1], 0.7, 0.3, 0.3, mixes[1], 0.7, 0.3]},
                       {"time": 1.0, "mixRotate": 0.4, "mixX": 0.2, "mixY": 0.2},
                       {"time": 1.6, "mixRotate": 1, "mixX": 1, "mixY": 1}]
        anim_path["path-" + name] = keys
        if not weighted and name in ("a", "b"):
            n = len(verts)
            offs = [((i * 7) % 11 - 5) * 1.5 for i in range(n)]
            deform[slot] = {slot: {"deform": [{"time": 0}, {"time": 1, "vertices": offs}, {"time": 2}]}}
    # a weighted bounding box and a point attachment, for world positions of hit areas
    names = [b["name"] for b in bones]
    slots.append({"name": "bbox", "bone": "holder-d", "attachment": "bbox"})
    box = []
    for (x, y) in [(-20, -20), (60, -10), (70, 50), (-10, 60), (20, 20)]:
        box += [2, names.index("ctrl-d0"), x, y, 0.6, names.index("ctrl-d1"), x - 30, y - 40, 0.4]
    skin["bbox"] = {"bbox": {"type": "boundingbox", "vertexCount": 5, "vertices": box}}
    slots.append({"name": "plain-box", "bone": "chain-a2", "attachment": "plain-box"})
    skin["plain-box"] = {"plain-box": {"type": "boundingbox", "vertexCount": 4, "vertices": [-5, -5, 25, -5, 25, 15, -5, 15]}}
    slots.append({"name": "point", "bone": "chain-e3", "attachment": "muzzle"})
    skin["point"] = {"muzzle": {"type": "point", "x": 12, "y": -4, "rotation": 33}}
    data = {"skeleton": header("paths"), "bones": bones, "slots": slots, "path": constraints,
            "skins": [{"name": "default", "attachments": skin}],
            "animations": {
                "move": {"bones": anim_bones, "path": anim_path, "attachments": {"default": deform}},
                "still": {"bones": {"holder-a": {"rotate": [{"time": 0}, {"time": 0.5, "value": 10}]}}},
            }}
    return data

# ---------------------------------------------------------------- physics
def physics_skeleton():
    bones = [{"name": "root"}, {"name": "mover", "parent": "root", "length": 30}]
    constraints = []
    configs = [
        # name, x, y, rotate, scaleX, shearX, limit, fps, inertia, strength, damping, mass, wind, gravity, mix, globals
        ("xy", 1, 0.7, 0, 0, 0, 80, 30, 0.5, 60, 0.9, 2, 5, 30, 1, {}),
        ("rot", 0, 0, 1, 0, 0, 5000, 60, 1, 100, 0.85, 1, 0, 0, 0.8, {"windGlobal": True, "gravityGlobal": True}),
        ("rotscale", 0, 0, 0.8, 0.6, 0, 300, 60, 0.7, 150, 0.95, 1.5, 20, 10, 1, {"mixGlobal": True, "inertiaGlobal": True}),
        ("shear", 0, 0, 0.5, 0, 0.7, 5000, 45, 0.9, 80, 0.8, 0.5, -10, 40, 1, {"strengthGlobal": True, "dampingGlobal": True}),
        ("shearonly", 0, 0, 0, 0, 1, 5000, 60, 1, 120, 0.9, 1, 0, 25, 0.6, {"massGlobal": True, "windGlobal": True}),
        ("scaleonly", 0, 0, 0, 1, 0, 200, 60, 0.6, 90, 0.9, 1, 15, 15, 1, {"gravityGlobal": True}),
        ("all", 0.5, 1, 1, 0.5, 0.5, 1000, 24, 0.8, 70, 0.75, 3, 8, -20, 0.9, {"inertiaGlobal": True, "mixGlobal": True}),
        ("chain1", 0, 0, 1, 0, 0, 5000, 60, 0.5, 100, 1, 1, 0, 50, 1, {}),
        ("chain2", 0, 0, 1, 0, 0, 5000, 60, 0.5, 100, 1, 1, 0, 50, 1, {}),
    ]
    for k, c in enumerate(configs):
        name = c[0]
        parent = "mover" if not name.startswith("chain2") else "p-chain1"
        bones.append({"name": "p-" + name, "parent": parent, "length": 25 + 3 * k, "x": 20 + 5 * k, "y": -10 + 4 * k, "rotation": 15 * k - 40})
        d = {"name": "phys-" + name, "order": k, "bone": "p-" + name}
        for key, v in zip(["x", "y", "rotate", "scaleX", "shearX", "limit", "fps", "inertia", "strength", "damping", "mass", "wind", "gravity", "mix"], c[1:15]):
            d[key] = v
        d.update(c[15])
        constraints.append(d)
    # a transform constraint after physics, reading a physics bone
    bones.append({"name": "follower", "parent": "root", "length": 10, "x": -40})
    tc = [{"name": "follow", "order": len(configs), "bones": ["follower"], "target": "p-all", "mixRotate": 0.5, "mixX": 0.5, "mixScaleX": 0, "mixShearY": 0}]
    anim = {
        "bones": {"mover": {
            "translate": [{"time": 0}, {"time": 0.3, "x": 60, "y": 10, "curve": [0.4, 30, 0.6, 8, 0.4, 5, 0.6, 10]}, {"time": 0.5, "x": -40, "y": -30}, {"time": 1.1, "x": 10, "y": 80}, {"time": 1.6}],
            "rotate": [{"time": 0}, {"time": 0.4, "value": 70}, {"time": 0.9, "value": -50}, {"time": 1.6}],
            "scale": [{"time": 0}, {"time": 0.6, "x": 1.5, "y": 0.7}, {"time": 1.2, "x": -1, "y": 1}, {"time": 1.6}]}},
        "physics": {
            "phys-xy": {"inertia": [{"time": 0, "value": 0.5}, {"time": 1, "value": 1}],
                         "strength": [{"time": 0.2, "value": 60}, {"time": 1.2, "value": 200}],
                         "damping": [{"time": 0, "value": 0.9}, {"time": 0.8, "value": 0.6}],
                         "mass": [{"time": 0, "value": 2}, {"time": 1, "value": 0.5}],
                         "wind": [{"time": 0, "value": 5}, {"time": 0.5, "value": -30}],
                         "gravity": [{"time": 0.1, "value": 30}, {"time": 1.3, "value": -10}],
                         "mix": [{"time": 0, "value": 1}, {"time": 0.9, "value": 0.3}, {"time": 1.4, "value": 1}]},
            "phys-rot": {"reset": [{"time": 0.8}, {"time": 1.5}]},
            "phys-all": {"reset": [{"time": 1.0}]},
            "": {"wind": [{"time": 0, "value": 0}, {"time": 0.7, "value": 40}, {"time": 1.5, "value": -20}],
                 "gravity": [{"time": 0.4, "value": 10}, {"time": 1.2, "value": 60}],
                 "mix": [{"time": 0, "value": 1}, {"time": 1, "value": 0.5}],
                 "inertia": [{"time": 0, "value": 0.8}, {"time": 1.4, "value": 0.3}],
                 "strength": [{"time": 0, "value": 100}, {"time": 1, "value": 40}],
                 "damping": [{"time": 0, "value": 0.9}, {"time": 1, "value": 0.99}],
                 "mass": [{"time": 0, "value": 1}, {"time": 1, "value": 4}]},
        },
    }
    calm = {"bones": {"mover": {"rotate": [{"time": 0}, {"time": 2, "value": 360}]}}}
    data = {"skeleton": header("physics", ref=50), "bones": bones, "slots": [], "physics": constraints,
            "transform": tc, "skins": [{"name": "default", "attachments": {}}],
            "animations": {"shake": anim, "spin": calm}}
    return data

# ---------------------------------------------------------------- sequences
def sequence_skeleton():
    modes = ["hold", "once", "loop", "pingpong", "onceReverse", "loopReverse", "pingpongReverse"]
    bones = [{"name": "root"}]
    slots = []
    skin = {}
    attach = {}
    slot_timelines = {}
    for k, mode in enumerate(modes + ["mesh"]):
        bn = "b-" + mode
        bones.append({"name": bn, "parent": "root", "x": -300 + 90 * k, "y": 10 * k, "rotation": 7 * k, "scaleX": 0.3, "scaleY": 0.3})
        sn = "s-" + mode
        slots.append({"name": sn, "bone": bn, "attachment": "left-wing"})
        seq = {"count": 9, "digits": 2, "setupIndex": k % 9}
        if mode == "mesh":
            att = {"type": "mesh", "path": "left-wing", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [1, 2, 3, 1, 3, 0],
                   "vertices": [-100, -200, 100, -200, 100, 200, -100, 200], "hull": 4, "width": 264, "height": 589, "sequence": seq}
            m = "loop"
        else:
            att = {"x": -36.32, "y": -44.53, "rotation": -83.7, "width": 264, "height": 589, "sequence": seq}
            m = mode
        skin[sn] = {"left-wing": att}
        keys = [{"time": 0.1, "mode": m, "index": 0, "delay": 0.0667},
                {"time": 0.9, "mode": m, "index": 3, "delay": 0.05},
                {"time": 1.6, "mode": "hold", "index": 5},
                {"time": 1.8, "mode": m, "index": 1, "delay": 0.1}]
        attach[sn] = {"left-wing": {"sequence": keys}}
    # one slot swaps attachments so its sequence index resets
    skin["s-loop"]["other"] = {"x": 0, "y": 0, "width": 264, "height": 589, "path": "left-wing", "sequence": {"count": 9, "digits": 2, "setupIndex": 4}}
    slot_timelines["s-loop"] = {"attachment": [{"time": 1.2, "name": "other"}, {"time": 1.5, "name": "left-wing"}]}
    data = {"skeleton": header("sequences"), "bones": bones, "slots": slots,
            "skins": [{"name": "default", "attachments": skin}],
            "animations": {"frames": {"slots": slot_timelines, "attachments": {"default": attach},
                                       "bones": {"root": {"rotate": [{"time": 0}, {"time": 2.2, "value": 30}]}}}}}
    return data

for name, fn in [("paths", path_skeleton), ("physics", physics_skeleton), ("sequences", sequence_skeleton)]:
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(fn(), f, indent=1)
print("ok")
