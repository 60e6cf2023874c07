import Foundation

/// The variables of the process environment the harness reads, read here and nowhere else; callers pass the values
/// on (a default argument at most), so the library below the CLI never looks at the environment itself.
package enum ProcessEnvironment {
    /// The embedding and file-hash caches: `$THEMELAB_CACHE`, else the user's cache folder, `$XDG_CACHE_HOME/themelab`
    /// (an absolute XDG_CACHE_HOME, as the XDG Base Directory Specification asks) or `$HOME/.cache/themelab`, one for every
    /// working folder; `.themelab/cache` in the working folder only when neither is set. `make reproduce` keeps its own
    /// (the checkout's `.themelab/cache`), and a command's `--cache DIR` overrides all of them.
    package static var cacheFolder: String {
        if let given = givenCacheFolder { return given }
        if let xdg = variable("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/themelab" }
        if let home = variable("HOME"), home.hasPrefix("/") { return home + "/.cache/themelab" }
        return ".themelab/cache"
    }
    /// `$THEMELAB_CACHE` as given, nil when unset or empty.
    package static var givenCacheFolder: String? { variable("THEMELAB_CACHE").flatMap { $0.isEmpty ? nil : $0 } }
    /// `$THEMELAB_DATA`, nil when unset or empty: where downloaded corpora live.
    package static var dataFolder: String? { variable("THEMELAB_DATA").flatMap { $0.isEmpty ? nil : $0 } }
    /// `$THEMELAB_MODEL`, nil when unset or empty: the sentence-transformers model folder.
    package static var modelFolder: String? { variable("THEMELAB_MODEL").flatMap { $0.isEmpty ? nil : $0 } }

    /// `$THEMELAB_ENCODER_PATH`: the encoder kernel's path (scalar, avx2, avx512), nil for the widest this CPU runs.
    package static var encoderPath: String? { variable("THEMELAB_ENCODER_PATH") }

    private static func variable(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }
}
