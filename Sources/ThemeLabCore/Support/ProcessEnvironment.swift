import Foundation

/// The variables of the process environment the harness reads, read here and nowhere else; callers pass the values
/// on (a default argument at most), so the library below the CLI never looks at the environment itself.
package enum ProcessEnvironment {
    /// `$THEMELAB_CACHE`, else `.themelab/cache` in the working directory: the embedding and file-hash caches.
    package static var cacheFolder: String { variable("THEMELAB_CACHE") ?? ".themelab/cache" }
    /// `$THEMELAB_CACHE` as given, nil when unset.
    package static var givenCacheFolder: String? { variable("THEMELAB_CACHE") }
    /// `$THEMELAB_DATA`, nil when unset or empty: where downloaded corpora live.
    package static var dataFolder: String? { variable("THEMELAB_DATA").flatMap { $0.isEmpty ? nil : $0 } }
    /// `$THEMELAB_MODEL`, nil when unset or empty: the sentence-transformers model folder.
    package static var modelFolder: String? { variable("THEMELAB_MODEL").flatMap { $0.isEmpty ? nil : $0 } }

    /// `$THEMELAB_ENCODER_PATH`: the encoder kernel's path (scalar, avx2, avx512), nil for the widest this CPU runs.
    package static var encoderPath: String? { variable("THEMELAB_ENCODER_PATH") }

    private static func variable(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }
}
