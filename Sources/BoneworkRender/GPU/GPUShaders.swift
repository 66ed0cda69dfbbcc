extension GPURenderer {
    /// Pulls each corner from the static store (or, past `uStaticCorners`, from the frame's clipped
    /// corners), skins it with its character's bones and deform offsets, and collapses triangles of
    /// images their slot does not show. `aCharacter` is the command's baseInstance (or the generic
    /// value set per command without multi-draw).
    ///
    /// A character's record says where its state is: rows the CPU packed (bones, slot rows with the
    /// shown image and colours, deform offsets), or a block of its batch's columns (record w = 1:
    /// block, row in the block, the kind's attachment records), from which the shader derives the
    /// slot's image, colours and deform by the CPU path's rules (`GPUFrame.writeCharacter`,
    /// `SlotVertexColors`, `PoseView.deform`): no attachment, an inactive bone, a slot or
    /// attachment alpha of 0, or another image than this vertex's draws nothing.
    ///
    /// A block's world transforms and slot attachments are read from the block (descriptor words
    /// 24 and 40 = 0) or, where the World keeps them in the renderer's `GPUColumnMemory`, from
    /// source k's buffer textures `uSourceFloats<k>` / `uSourceWords<k>` (word = k, 1 ...
    /// `inPlaceSources`).
    static func vertexShader(inPlaceSources: Int) -> String {
        let samplers = (0..<inPlaceSources).map {
            "uniform samplerBuffer uSourceFloats\($0 + 1);\nuniform usamplerBuffer uSourceWords\($0 + 1);\n"
        }.joined()
        let sources = (0..<inPlaceSources).map {
            "    if (source == \($0 + 1)u) return texelFetch(uSourceFloats\($0 + 1), i).x;\n"
        }.joined()
        let wordSources = (0..<inPlaceSources).map {
            "    if (source == \($0 + 1)u) return int(texelFetch(uSourceWords\($0 + 1), i).x);\n"
        }.joined()
        var text = ""
        for line in vertexShaderTemplate.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix("//@WORLD_SAMPLERS") {
                text += samplers
            } else if line.hasSuffix("//@WORLD_SOURCES") {
                text += sources
            } else if line.hasSuffix("//@WORD_SOURCES") {
                text += wordSources
            } else {
                text += line + "\n"
            }
        }
        return text
    }

    private static let vertexShaderTemplate = """
        #version 330 core
        layout(location = 0) in int aCharacter;
        uniform usamplerBuffer uVertices;    // 2 texels per vertex: u, v, slot, variant | influences, count, meta, deform
        uniform samplerBuffer uInfluences;   // bone, x, y, weight
        uniform usamplerBuffer uCorners;     // vertex per corner
        uniform usamplerBuffer uDynamic;     // 2 texels per clipped corner: x, y, u, v | light, dark, meta, 0
        uniform isamplerBuffer uCharacters;  // bone texel, slot texel, deform float, 0 | block word, row, attachments, 1 or 2 + deform float
        uniform samplerBuffer uBones;        // 6 floats per bone: a, b, c, d, worldX, worldY
        uniform usamplerBuffer uSlots;       // variant, light, dark, deform float
        uniform samplerBuffer uDeform;
        uniform usamplerBuffer uAttachments; // 2 texels per attachment: flags | full deform << 2, first frame, frames, setup frame | colour
        uniform samplerBuffer uColumns;      // column blocks as floats
        uniform usamplerBuffer uColumnWords; // the same as words
        uniform usamplerBuffer uColumnQuads; // the same, four words a texel (block descriptors)
        uniform usamplerBuffer uClipParts;   // 5 texels per clip part: vertex count | 8 vertices x, y in its bone's space
        uniform vec4 uLayers[64];            // page size (x, y), filter, premultiplied
        uniform int uStaticCorners;
        uniform int uCharacterBase;          // this frame's region of each table, in texels
        uniform int uBoneBase;
        uniform int uSlotBase;
        uniform int uDeformBase;
        uniform vec2 uOrigin;
        uniform vec2 uScale;
        //@WORLD_SAMPLERS
        out float gl_ClipDistance[8];
        out vec2 vUV;
        out vec4 vLight;
        out vec4 vDark;
        flat out uint vMeta;
        vec4 unpackColor(uint c) {
            return vec4((uvec4(c) >> uvec4(0u, 8u, 16u, 24u)) & 255u) / 255.0;
        }
        int word(int i) { return int(texelFetch(uColumnWords, i).x); }
        float value(int i) { return texelFetch(uColumns, i).x; }
        // A world-transform float: from the block's own copy (source 0) or read in place.
        float bone(uint source, int i) {
        //@WORLD_SOURCES
            return texelFetch(uColumns, i).x;
        }
        // Element e's world transform (a, b, c, d in m; worldX, worldY in t), its columns' first
        // words in d2 and d3.
        void boneAt(uvec4 d2, uvec4 d3, uint source, int e, out vec4 m, out vec2 t) {
            m = vec4(bone(source, int(d2.x) + e), bone(source, int(d2.y) + e), bone(source, int(d2.z) + e),
                bone(source, int(d2.w) + e));
            t = vec2(bone(source, int(d3.x) + e), bone(source, int(d3.y) + e));
        }
        // A column word (the slot attachments) from the block or read in place.
        int sourceWord(uint source, int i) {
        //@WORD_SOURCES
            return word(i);
        }
        uint byteAt(int first, int i) {
            return (texelFetch(uColumnWords, first + (i >> 2)).x >> uint((i & 3) * 8)) & 255u;
        }
        // Element k of a row in a column of n elements per instance, instances in chunks of `size`.
        int at(int size, int n, int row, int k) {
            int chunk = row / size;
            return chunk * size * n + (row - chunk * size) + k * size;
        }
        // One channel as the CPU path stores it: floor(x * 255), clamped, NaN as 0.
        float quantize(float x) {
            float s = x * 255.0;
            return s >= 1.0 ? (s < 255.0 ? floor(s) : 255.0) / 255.0 : 0.0;
        }
        void collapse() {
            vLight = vec4(0.0);
            vDark = vec4(0.0);
            gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        }
        void main() {
            if (gl_VertexID >= uStaticCorners) {
                int d = (gl_VertexID - uStaticCorners) * 2;
                uvec4 p = texelFetch(uDynamic, d);
                uvec4 q = texelFetch(uDynamic, d + 1);
                vUV = uintBitsToFloat(p.zw);
                vLight = unpackColor(q.x);
                vDark = unpackColor(q.y);
                vMeta = q.z;
                gl_Position = vec4((uintBitsToFloat(p.xy) - uOrigin) * uScale - 1.0, 0.0, 1.0);
                return;
            }
            for (int i = 0; i < 8; i++) gl_ClipDistance[i] = 1.0;
            // The character, flagged (bit 24) for the parts of a GPU clip, one instance each.
            int characterIndex = aCharacter & 0xFFFFFF;
            int part = (aCharacter >> 24) != 0 ? gl_InstanceID : -1;
            ivec4 character = texelFetch(uCharacters, uCharacterBase + characterIndex * 2);
            int vertex = int(texelFetch(uCorners, gl_VertexID).x);
            uvec4 v0 = texelFetch(uVertices, vertex * 2);
            uvec4 v1 = texelFetch(uVertices, vertex * 2 + 1);
            vUV = uintBitsToFloat(v0.xy);
            vMeta = v1.z;
            vec2 world = vec2(0.0);
            if (character.w >= 1) {
                int block = character.x / 4;
                int row = character.y;
                uvec4 d0 = texelFetch(uColumnQuads, block);     // chunk size, bones, slots, colour rows
                uvec4 d1 = texelFetch(uColumnQuads, block + 1); // dark, sequence, deform rows, deform floats
                uvec4 d2 = texelFetch(uColumnQuads, block + 2); // a, b, c, d
                uvec4 d3 = texelFetch(uColumnQuads, block + 3); // worldX, worldY, attachment, colour r
                uvec4 d4 = texelFetch(uColumnQuads, block + 4); // colour g, b, a, dark r
                uvec4 d5 = texelFetch(uColumnQuads, block + 5); // dark g, b, sequence, deform length
                uvec4 d6 = texelFetch(uColumnQuads, block + 6); // unused, plan, skeleton r, g
                uvec4 d7 = texelFetch(uColumnQuads, block + 7); // skeleton b, a, slot bone, colour row
                uvec4 d8 = texelFetch(uColumnQuads, block + 8); // dark row, sequence row, deform row, deform offset
                uvec4 d9 = texelFetch(uColumnQuads, block + 9); // setup colour, setup dark, has dark, active bones
                uvec4 d10 = texelFetch(uColumnQuads, block + 10); // attachment source, unused
                int size = int(d0.x);
                int bones = int(d0.y);
                uint worldSource = d6.x;
                int s = int(v0.z);
                int attachment = sourceWord(d10.x, int(d3.z) + at(size, int(d0.z), row, s));
                if (attachment < 0) {
                    collapse();
                    return;
                }
                uvec4 a0 = texelFetch(uAttachments, character.z + attachment * 2);
                int plan = word(int(d6.y) + row);
                int frames = int(a0.z);
                if ((a0.x & 1u) == 0u || frames <= 0 || byteAt(int(d9.w), plan * bones + word(int(d7.z) + s)) == 0u) {
                    collapse();
                    return;
                }
                int sequenceRow = word(int(d8.y) + s);
                int index = sequenceRow < 0 ? -1 : word(int(d5.z) + at(size, int(d1.y), row, sequenceRow));
                index = clamp(index < 0 ? int(a0.w) : index, 0, frames - 1);
                if (uint(int(a0.y) + index) != v0.w) {
                    collapse();
                    return;
                }
                vec4 color;
                int colorRow = word(int(d7.w) + s);
                if (colorRow < 0) {
                    int c = int(d9.x) + s * 4;
                    color = vec4(value(c), value(c + 1), value(c + 2), value(c + 3));
                } else {
                    int e = at(size, int(d0.w), row, colorRow);
                    color = vec4(value(int(d3.w) + e), value(int(d4.x) + e), value(int(d4.y) + e), value(int(d4.z) + e));
                }
                vec4 attachmentColor = uintBitsToFloat(texelFetch(uAttachments, character.z + attachment * 2 + 1));
                if (color.a == 0.0 || attachmentColor.a == 0.0) {
                    collapse();
                    return;
                }
                vec4 skeleton = vec4(
                    value(int(d6.z) + row), value(int(d6.w) + row), value(int(d7.x) + row), value(int(d7.y) + row));
                vec4 c = skeleton * color * attachmentColor;
                bool hasDark = byteAt(int(d9.z), s) != 0u;
                vec3 dark = vec3(0.0);
                if (hasDark) {
                    int darkRow = word(int(d8.x) + s);
                    if (darkRow < 0) {
                        int q = int(d9.y) + s * 3;
                        dark = vec3(value(q), value(q + 1), value(q + 2));
                    } else {
                        int e = at(size, int(d1.x), row, darkRow);
                        dark = vec3(value(int(d4.w) + e), value(int(d5.x) + e), value(int(d5.y) + e));
                    }
                }
                if (uLayers[int(v1.z & 0xFFFFu)].w != 0.0) {
                    vLight = vec4(quantize(c.r * c.a), quantize(c.g * c.a), quantize(c.b * c.a), quantize(c.a));
                    vDark = hasDark
                        ? vec4(quantize(dark.r * c.a), quantize(dark.g * c.a), quantize(dark.b * c.a), 1.0)
                        : vec4(0.0, 0.0, 0.0, 1.0);
                } else {
                    vLight = vec4(quantize(c.r), quantize(c.g), quantize(c.b), quantize(c.a));
                    vDark = hasDark
                        ? vec4(quantize(dark.r), quantize(dark.g), quantize(dark.b), 0.0)
                        : vec4(0.0, 0.0, 0.0, 1.0);
                }
                // Deform: the slot's offsets in use, padded with zeros to the attachment's full
                // length for weighted meshes; an unweighted mesh needs all of them.
                int deformRow = word(int(d8.z) + s);
                int length = deformRow < 0 ? 0 : word(int(d5.w) + at(size, int(d1.z), row, deformRow));
                int offset = word(int(d8.w) + s);
                int usable = max(0, min(length, word(int(d8.w) + s + 1) - offset));
                int full = int(a0.x >> 2u);
                bool weighted = (a0.x & 2u) != 0u;
                bool deformed = character.w >= 2 && usable > 0 && full > 0 && (weighted || usable >= full);
                usable = min(usable, full);
                int deformAt = uDeformBase + character.w - 2 + offset + int(v1.w);
                int boneRow = at(size, bones, row, 0);
                for (int k = 0; k < int(v1.y); k++) {
                    vec4 influence = texelFetch(uInfluences, int(v1.x) + k);
                    vec2 local = influence.yz;
                    if (deformed) {
                        int j = int(v1.w) + 2 * k;
                        vec2 shift = vec2(
                            j < usable ? texelFetch(uDeform, deformAt + 2 * k).x : 0.0,
                            j + 1 < usable ? texelFetch(uDeform, deformAt + 2 * k + 1).x : 0.0);
                        local = weighted ? local + shift : shift;
                    }
                    int e = boneRow + int(influence.x) * size;
                    vec4 m;
                    vec2 t;
                    boneAt(d2, d3, worldSource, e, m, t);
                    world += vec2(local.x * m.x + local.y * m.y + t.x, local.x * m.z + local.y * m.w + t.y) * influence.w;
                }
                if (part >= 0) {
                    // Inside the part: on the inner side of each of its edges, in world space.
                    ivec4 clip = texelFetch(uCharacters, uCharacterBase + characterIndex * 2 + 1);
                    int e = boneRow + clip.x * size;
                    vec4 m;
                    vec2 t;
                    boneAt(d2, d3, worldSource, e, m, t);
                    int first = clip.y + part * 5;
                    int n = int(texelFetch(uClipParts, first).x);
                    vec2 corner[8];
                    for (int i = 0; i < 8; i++) {
                        uvec4 pair = texelFetch(uClipParts, first + 1 + i / 2);
                        vec2 local = uintBitsToFloat((i & 1) == 0 ? pair.xy : pair.zw);
                        corner[i] = vec2(local.x * m.x + local.y * m.y + t.x, local.x * m.z + local.y * m.w + t.y);
                    }
                    float area = 0.0;
                    for (int i = 0; i < n; i++) {
                        vec2 a = corner[i];
                        vec2 b = corner[(i + 1) % n];
                        area += a.x * b.y - b.x * a.y;
                    }
                    float side = area < 0.0 ? -1.0 : 1.0;
                    for (int i = 0; i < n; i++) {
                        vec2 a = corner[i];
                        vec2 edge = corner[(i + 1) % n] - a;
                        vec2 to = world - a;
                        gl_ClipDistance[i] = side * (edge.x * to.y - edge.y * to.x);
                    }
                }
                gl_Position = vec4((world - uOrigin) * uScale - 1.0, 0.0, 1.0);
                return;
            }
            uvec4 slot = texelFetch(uSlots, uSlotBase + character.y + int(v0.z));
            if (slot.x != v0.w) {
                // Not the image this slot shows now: outside the view.
                collapse();
                return;
            }
            vLight = unpackColor(slot.y);
            vDark = unpackColor(slot.z);
            bool deformed = slot.w != 0xFFFFFFFFu;
            bool weighted = (v1.z & 0x40000u) != 0u;
            int deformAt = uDeformBase + int(slot.w) + int(v1.w);
            for (int k = 0; k < int(v1.y); k++) {
                vec4 influence = texelFetch(uInfluences, int(v1.x) + k);
                vec2 local = influence.yz;
                if (deformed) {
                    vec2 offset = vec2(texelFetch(uDeform, deformAt + 2 * k).x,
                                       texelFetch(uDeform, deformAt + 2 * k + 1).x);
                    local = weighted ? local + offset : offset;
                }
                int first = character.x * 4 + int(influence.x) * 6; // float index, always even
                int texel = uBoneBase + (first >> 2);
                vec4 p = texelFetch(uBones, texel);
                vec4 q = texelFetch(uBones, texel + 1);
                vec4 m;
                vec2 t;
                if ((first & 2) == 0) {
                    m = p;
                    t = q.xy;
                } else {
                    m = vec4(p.zw, q.xy);
                    t = q.zw;
                }
                world += vec2(local.x * m.x + local.y * m.y + t.x, local.x * m.z + local.y * m.w + t.y) * influence.w;
            }
            gl_Position = vec4((world - uOrigin) * uScale - 1.0, 0.0, 1.0);
        }
        """

    /// The CPU path's two-colour tint (`BatchRenderer`), then the slot's blend mode as a pair of
    /// dual-source outputs for the one blend state `ONE, ONE_MINUS_SRC1_COLOR` (colour) and
    /// `ONE, ONE_MINUS_SRC1_ALPHA` (alpha). With `f` the tinted colour and `s` 1 for premultiplied
    /// pages, `f.a` for straight ones, the results equal the CPU path's blend functions:
    /// normal `src0 = (f.rgb s, f.a), src1 = f.a`; additive `src0` the same, `src1 = 0`; multiply
    /// `src0 = (0, f.a), src1 = (f.a - f.rgb, f.a)`, giving `dst (f.rgb + 1 - f.a)` as
    /// `DST_COLOR, ONE_MINUS_SRC_ALPHA` does (for `f.rgb <= f.a`, which premultiplied pages keep;
    /// straight-alpha multiply slots are drawn apart with that blend state, `src0 = f`);
    /// screen `src0 = src1 = f`. Pages are layers of one array, sampled inside their own size with
    /// their own filter.
    static let fragmentShader = """
        #version 330 core
        uniform sampler2DArray uPages;
        uniform vec4 uLayers[64];  // page size / array size (x, y), filter (0 linear, 1 nearest, 2 mipmaps), premultiplied
        uniform vec2 uArraySize;
        uniform int uHasMipmaps;
        in vec2 vUV;
        in vec4 vLight;
        in vec4 vDark;
        flat in uint vMeta;
        layout(location = 0, index = 0) out vec4 color0;
        layout(location = 0, index = 1) out vec4 color1;
        void main() {
            int layer = int(vMeta & 0xFFFFu);
            uint blend = (vMeta >> 16) & 3u;
            vec4 info = uLayers[layer];
            vec2 size = info.xy * uArraySize;
            vec2 texel = vUV * size;
            vec2 inside = clamp(texel, vec2(0.5), size - 0.5) / uArraySize;
            vec4 t;
            if (uHasMipmaps != 0) {
                vec4 mipmapped = texture(uPages, vec3(inside, float(layer)));
                t = info.z == 2.0 ? mipmapped : textureLod(uPages, vec3(inside, float(layer)), 0.0);
            } else {
                t = textureLod(uPages, vec3(inside, float(layer)), 0.0);
            }
            if (info.z == 1.0) {
                ivec2 nearest = clamp(ivec2(floor(texel)), ivec2(0), ivec2(size) - 1);
                t = texelFetch(uPages, ivec3(nearest, layer), 0);
            }
            vec4 f;
            f.a = t.a * vLight.a;
            f.rgb = ((t.a - 1.0) * vDark.a + 1.0 - t.rgb) * vDark.rgb + t.rgb * vLight.rgb;
            float s = info.w != 0.0 ? 1.0 : f.a;
            if (blend == 0u) {
                color0 = vec4(f.rgb * s, f.a);
                color1 = vec4(f.a);
            } else if (blend == 1u) {
                color0 = vec4(f.rgb * s, f.a);
                color1 = vec4(0.0);
            } else if (blend == 2u && info.w != 0.0) {
                color0 = vec4(0.0, 0.0, 0.0, f.a);
                color1 = vec4(f.a - f.rgb, f.a);
            } else if (blend == 2u) {
                // Straight-alpha multiply: drawn apart with DST_COLOR, ONE_MINUS_SRC_ALPHA.
                color0 = f;
                color1 = vec4(f.a);
            } else {
                color0 = f;
                color1 = f;
            }
        }
        """
}
