# The test targets, in the order Tools/test.sh and Tools/sanitize.sh run them (each in its own
# process). Sourced by both (and test_build below by the scripts that share the tests' build); a
# new test target is added here and in Package.swift.
test_targets=(
    BoneworkFormatTests
    BoneworkWorldTests
    BoneworkRenderTests
    BoneworkTests
    BoneworkCLITests
    BoneworkPlatformTests
)

# How Tools/test.sh builds the tests, and where: the debug configuration (DEBUG-only code such as
# the trigger diagnostics, -enable-testing, every precondition and overflow check) compiled with
# optimisation. The golden replays dominate the suite: the World target ran in 1.7 min instead of
# 11 on the 2-core machine, for about a minute more of building. In a folder of its own, so a plain
# `swift build` or `swift test` beside it (debug, unoptimised, in .build) rebuilds nothing. The
# documentation scripts and the diagnostics check read the same build.
test_build=(--scratch-path .build/test -Xswiftc -O)
