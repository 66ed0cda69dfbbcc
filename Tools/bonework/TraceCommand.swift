enum TraceCommand { static func run(_ args: [String]) throws {} }
