# The test targets, in the order Tools/test.sh and Tools/sanitize.sh run them (each in its own
# process). Sourced by both; a new test target is added here and in Package.swift.
test_targets=(
    BoneworkFormatTests
    BoneworkWorldTests
    BoneworkRenderTests
    BoneworkTests
    BoneworkCLITests
    BoneworkPlatformTests
)
