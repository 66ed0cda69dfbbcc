/// GL work shares one headless context: tests that render run one at a time.
@globalActor actor RenderActor {
    static let shared = RenderActor()
}
