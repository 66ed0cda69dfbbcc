// Bonework: the application-facing API.
//
// Loading
//   SkeletonSource.swift     where files come from (.file, .bundle, .http, .drawable,
//                            .defaultCharacter) and `SkeletonAssets`: atlas + skeleton data + draw
//                            tables, shared through `SkeletonDataPool.shared`.
// One instance
//   SkeletonDrawable.swift   an entity in a `World` with its animation state: update(delta:),
//                            renderToImage(size:backgroundColor:scaleFactor:), dispose(); the entity
//                            is despawned when the drawable goes away. `RenderedImage` writes PNGs.
//   Skeleton.swift           handles over the entity: Skeleton (skins, setup pose, position, bounds),
//                            Bone (local/world transforms, world <-> local), Slot (colour, attachment).
//   Skin.swift               custom skins assembled from the skeleton's skins (mix and match).
// Showing it
//   Layout.swift             ContentMode, Alignment, Layout (view pixels <-> skeleton coordinates),
//                            BoundsProvider: SetupPoseBounds, RawBounds, SkinAndAnimationBounds.
//   SkeletonController.swift callbacks per frame (onInitialized, onBefore/AfterUpdateWorldTransforms,
//                            onBefore/AfterPaint), pause/resume, SkeletonCanvas for overlays.
//   SkeletonView.swift       one or more skeletons in a view; make / update / dismantle; headless
//                            frames through `renderFrame`.
//   SkeletonWindow.swift     the GLFW window hosting a view (typed error without a display).
//   SkeletonRenderer.swift   GL drawing: textures per atlas, shapes, the shared headless renderer.
//   DebugRenderer.swift      bones, bounding boxes, paths, clipping polygons and mesh hulls.
// Examples/                  the seven examples behind Tools/Examples/*/main.swift.
