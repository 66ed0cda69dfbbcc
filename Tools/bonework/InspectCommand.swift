enum InspectCommand { static func run(_ args: [String]) throws {} }
