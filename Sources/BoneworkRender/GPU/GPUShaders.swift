extension GPURenderer {
    /// Pulls each corner from the static store (or, past `uStaticCorners`, from the frame's clipped
    /// corners), skins it with its character's bones and deform offsets, and collapses triangles of
    /// images their slot does not show. `aCharacter` is the command's baseInstance (or the generic
    /// value set per command without multi-draw).
    static let vertexShader = """
        #version 330 core
        layout(location = 0) in int aCharacter;
        uniform usamplerBuffer uVertices;    // 2 texels per vertex: u, v, slot, variant | influences, count, meta, deform
        uniform samplerBuffer uInfluences;   // bone, x, y, weight
        uniform usamplerBuffer uCorners;     // vertex per corner
        uniform usamplerBuffer uDynamic;     // 2 texels per clipped corner: x, y, u, v | light, dark, meta, 0
        uniform isamplerBuffer uCharacters;  // bone texel, slot texel, deform float, 0
        uniform samplerBuffer uBones;        // 6 floats per bone: a, b, c, d, worldX, worldY
        uniform usamplerBuffer uSlots;       // variant, light, dark, deform float
        uniform samplerBuffer uDeform;
        uniform int uStaticCorners;
        uniform int uCharacterBase;          // this frame's region of each table, in texels
        uniform int uBoneBase;
        uniform int uSlotBase;
        uniform int uDeformBase;
        uniform vec2 uOrigin;
        uniform vec2 uScale;
        out vec2 vUV;
        out vec4 vLight;
        out vec4 vDark;
        flat out uint vMeta;
        vec4 unpackColor(uint c) {
            return vec4((uvec4(c) >> uvec4(0u, 8u, 16u, 24u)) & 255u) / 255.0;
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
            ivec4 character = texelFetch(uCharacters, uCharacterBase + aCharacter);
            int vertex = int(texelFetch(uCorners, gl_VertexID).x);
            uvec4 v0 = texelFetch(uVertices, vertex * 2);
            uvec4 v1 = texelFetch(uVertices, vertex * 2 + 1);
            uvec4 slot = texelFetch(uSlots, uSlotBase + character.y + int(v0.z));
            vUV = uintBitsToFloat(v0.xy);
            vMeta = v1.z;
            if (slot.x != v0.w) {
                // Not the image this slot shows now: outside the view.
                vLight = vec4(0.0);
                vDark = vec4(0.0);
                gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
                return;
            }
            vLight = unpackColor(slot.y);
            vDark = unpackColor(slot.z);
            bool deformed = slot.w != 0xFFFFFFFFu;
            bool weighted = (v1.z & 0x40000u) != 0u;
            int deformAt = uDeformBase + int(slot.w) + int(v1.w);
            vec2 world = vec2(0.0);
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
