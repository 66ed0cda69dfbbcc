// `import Bonework` is all an application needs: the modules below are re-exported, so the
// README's Swift section (`SkeletonDataPool`, `World`, `Entity`, `Color`, the renderers, the
// default character) compiles with that one import. Each module stays a product of its own for
// code that wants only a layer (e.g. `BoneworkWorld` without GL).
@_exported import BoneworkAssets
@_exported import BoneworkFormat
@_exported import BoneworkImage
@_exported import BoneworkRender
@_exported import BoneworkWorld
