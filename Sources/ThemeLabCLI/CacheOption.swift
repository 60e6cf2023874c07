import ThemeLabCore

/// `--cache DIR`, taken by every command that embeds texts: the embedding cache's folder for this run.
extension Arguments {
    /// `--cache DIR`, else `$THEMELAB_CACHE`, else the user's cache folder (`ProcessEnvironment.cacheFolder`); an empty
    /// DIR is refused.
    func cacheFolder() throws -> String {
        guard let given = self["cache"] else { return ProcessEnvironment.cacheFolder }
        guard !given.isEmpty else { throw ThemeLabError.usage("--cache needs a folder, got an empty name") }
        return given
    }

    /// The help line of `--cache`, indented to a command's option column.
    static func cacheHelp(indent: Int) -> String {
        "--cache DIR" + String(repeating: " ", count: max(indent - 13, 1))
            + "the embedding cache (default $THEMELAB_CACHE, else $XDG_CACHE_HOME/themelab or\n"
            + String(repeating: " ", count: indent) + "~/.cache/themelab: one for every working folder)"
    }
}
