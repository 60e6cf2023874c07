import ThemeLabCore

/// `--cache <DIR>`, taken by every command that embeds texts: the embedding cache's folder for this run.
struct CacheOption {
    var folder: String?

    static func arguments<C>(_ at: WritableKeyPath<C, CacheOption>) -> [Argument<C>] {
        [
            .option(
                "--cache", at.appending(path: \.folder), .path, value: "<DIR>",
                unset: "$THEMELAB_CACHE, else $XDG_CACHE_HOME/themelab or ~/.cache/themelab",
                help: "The embedding cache, one for every working folder.")
        ]
    }

    /// `--cache DIR` (the parser refuses an empty one), else `$THEMELAB_CACHE`, else the user's cache folder
    /// (`ProcessEnvironment.cacheFolder`).
    var resolved: String { folder ?? ProcessEnvironment.cacheFolder }
}
