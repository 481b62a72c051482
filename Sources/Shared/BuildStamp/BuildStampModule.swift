// This module's `BuildStamp` enum is written at build time by Plugins/BuildStampPlugin: the
// short hash of the commit built (empty outside a git checkout). Only the executables depend on
// it, and they hand it to `Release.stamp(commit:)` as they start, so a new commit relinks them
// without rebuilding the modules.
