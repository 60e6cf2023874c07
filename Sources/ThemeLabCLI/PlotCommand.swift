import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "plot", abstract: "Regenerate SVG plots from a results file, without recomputing.",
        discussion: """
            Writes, for every corpus × source × space in R.json: the similarity histogram (related and unrelated, each
            normalised to its class, with a dashed line per threshold rule), the threshold ablation (ARI and pair F1 per
            rule and grouping, and the groupings that choose their own cuts; with replicates each bar is their mean with
            its 95% interval) and ARI against the threshold (each grouping's curve, its best cut, every rule's threshold);
            and, for a layer sweep, anisotropy by layer. The plots are written as one set: a failure leaves the previous
            set as it was. PDFs are not part of results/, whose bytes must not depend on rsvg-convert; without --pdf, PDFs
            of these plots left by an earlier run are removed (they would show the old figures).

            With --bench: fits the cost model (time and peak memory as functions of N and d) to the
            `themelab bench pairs --mode full` lines in SCALE.jsonl, prints the formulas and a table of measured against
            predicted, and writes the log–log plot of time against N. Experiments/bench/scale does both.
            """)

    var results: String?
    var bench: String?
    var out: String?
    var pdf = false
    var pdfSeconds: Int?
    var png: Int?

    static var arguments: [Argument<Self>] {
        [
            .option("--results", \.results, .path, value: "<R.json>", help: "The results file to plot."),
            .option("--bench", \.bench, .path, value: "<SCALE.jsonl>", help: "Fit and plot the cost model instead."),
            .option(
                "--out", \.out, .path, value: "<DIR>",
                unset: "a plots/ folder beside R.json (refused when it is a link), or SCALE.svg beside SCALE.jsonl",
                help: "Where the plots go; with --bench, the SVG file."),
            .flag("--pdf", \.pdf, help: "Also a PDF beside each SVG, made by rsvg-convert (Debian's librsvg2-bin)."),
            .option(
                "--pdf-seconds", \.pdfSeconds, .count(1...3600), value: "<S>", unset: "\(SVGConverter.defaultSeconds)",
                help: "Seconds each PDF or PNG may take; rsvg-convert still running then is stopped and nothing is written."),
            .option(
                "--png", \.png, .count(100...10_000), value: "<WIDTH>",
                help: "Also a PNG WIDTH pixels wide beside each SVG, for a paper's rasters, made by rsvg-convert as --pdf's are "
                    + "(not part of results/ either)."),
        ]
    }

    func run(_ io: Invocation) throws {
        if let bench { return try plotCostModel(bench, io) }
        guard let path = results else { throw ThemeLabError.usage("missing --results") }
        guard pdf || png != nil || pdfSeconds == nil else { throw ThemeLabError.usage("--pdf-seconds applies to --pdf and --png only") }
        let seconds = pdfSeconds ?? SVGConverter.defaultSeconds
        let converters =
            try (pdf ? [SVGConverter.locate(.pdf, seconds: seconds)] : [])
            + (png.map { [try SVGConverter.locate(.png(width: $0), seconds: seconds)] } ?? [])
        let out = try self.out ?? plotsFolder(beside: path)
        let read = try JSONOutput.read(AnalysisResults.self, path: path, expected: "ThemeLab results file")
        let svgs = try SVGPlot.rendered(read, folder: out)
        let made = { (ending: String) in svgs.map { String($0.path.dropLast(4)) + ending } }
        try CommandPaths(reads: [path], writes: (svgs.map(\.path) + made(".pdf") + made(".png")).map { ($0, .file) }).check()
        var files = svgs.map { (contents: FileContents.bytes($0.data), path: $0.path) }
        for converter in converters {
            files += zip(svgs, made(converter.format.ending)).map { svg, file in
                (.descriptor({ try converter.convert(svg.data, of: svg.path, into: $0) }), file)
            }
        }
        // Rasters and PDFs of these plots left by an earlier run and not made again would show the old figures.
        let stale = [SVGConverter.Format.pdf, .png(width: 0)].filter { f in !converters.contains { $0.format.ending == f.ending } }
        try AtomicFile.write(files, removing: stale.flatMap { made($0.ending) })
        let kinds = converters.map { $0.format.ending.dropFirst().uppercased() }.joined(separator: " and ")
        io.note("wrote \(svgs.count) plots to \(out)\(converters.isEmpty ? "" : ", each with a \(kinds)")")
    }

    /// `--bench`: the cost model fitted to the bench lines, printed and plotted.
    func plotCostModel(_ bench: String, _ io: Invocation) throws {
        let points = try CostModel.Point.read(path: bench)
        let model = try CostModel(fitting: points)
        io.print(model.markdown(points), terminator: "")
        let out = self.out ?? URL(fileURLWithPath: bench).deletingPathExtension().appendingPathExtension("svg").path
        try CommandPaths(reads: [bench], writes: [(out, .file)]).check()
        try AtomicFile.write(model.plot(points), to: out)
        io.note("wrote \(out)")
    }
}

/// plots/ beside `results`, refused when it is a link: a link committed there would send the plots elsewhere.
private func plotsFolder(beside results: String) throws -> String {
    let folder = URL(fileURLWithPath: results).deletingLastPathComponent().appendingPathComponent("plots").path
    var info = stat()
    guard lstat(folder, &info) != 0 || (info.st_mode & S_IFMT) != S_IFLNK else {
        throw ThemeLabError.input("\(folder) is a link: give --out to write the plots through it")
    }
    return folder
}

/// rsvg-convert, run on the harness's own SVG bytes: they come in on its standard input and the PDF or PNG goes out on
/// its standard output, which is the staged temporary `AtomicFile` renames into place, so no path reaches the program
/// (none is opened by name, none can be read as an option). It is stopped after `seconds`, or when the run is interrupted.
struct SVGConverter {
    /// What it makes: a PDF, or a PNG so many pixels wide.
    enum Format {
        case pdf
        case png(width: Int)

        var ending: String { if case .pdf = self { ".pdf" } else { ".png" } }
        var option: String { if case .pdf = self { "--pdf" } else { "--png" } }
        var arguments: [String] {
            switch self {
            case .pdf: ["--format", "pdf"]
            case .png(let width): ["--format", "png", "--width", String(width), "--keep-aspect-ratio"]
            }
        }
        /// How its files begin.
        var signature: [UInt8] { if case .pdf = self { Array("%PDF-".utf8) } else { [0x89, 0x50, 0x4E, 0x47, 0x0D] } }
    }

    var format: Format
    var program: String
    var seconds: Int
    /// Seconds each PDF or PNG may take when --pdf-seconds is not given.
    static let defaultSeconds = 60

    /// The first executable rsvg-convert on PATH, or a refusal naming a non-executable one, or saying how to install it.
    static func locate(_ format: Format, seconds: Int) throws -> SVGConverter {
        var unusable: String?
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: "\(folder)/rsvg-convert").path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return SVGConverter(format: format, program: candidate, seconds: seconds)
            }
            unusable = unusable ?? candidate
        }
        if let unusable {
            throw ThemeLabError.usage("\(format.option): \(unusable) is not executable; make it so, or put librsvg2-bin's first on PATH")
        }
        throw ThemeLabError.usage("\(format.option) needs rsvg-convert on PATH (apt-get install librsvg2-bin)")
    }

    /// The PDF or PNG of `svg` (the plot written to `name`) into the descriptor `output`.
    func convert(_ svg: Data, of name: String, into output: Int32) throws {
        let kind = format.ending.dropFirst().uppercased()
        func failure(_ why: String) -> ThemeLabError { .input("\(name): \(program) could not make its \(kind) (\(why))") }
        guard let input = tmpfile() else { throw failure(String(cString: strerror(errno))) }
        defer { fclose(input) }
        guard let errors = tmpfile() else { throw failure(String(cString: strerror(errno))) }
        defer { fclose(errors) }
        try AtomicFile.writeAll(svg, to: fileno(input), path: name)
        rewind(input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = format.arguments
        process.standardInput = FileHandle(fileDescriptor: fileno(input), closeOnDealloc: false)
        process.standardOutput = FileHandle(fileDescriptor: output, closeOnDealloc: false)
        process.standardError = FileHandle(fileDescriptor: fileno(errors), closeOnDealloc: false)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        // Foundation starts it in a process group of its own: stopping the group stops what a wrapper script started too.
        // Started and registered in one step, so a SIGTERM right after the start still stops it.
        let (group, stop): (Int32, Int)
        do {
            (group, stop) = try Interruption.starting(
                { () throws -> Int32 in
                    try process.run()
                    return process.processIdentifier
                }, cleanUp: { group in _ = kill(-group, SIGKILL) })
        } catch let e as ThemeLabError { throw e } catch { throw failure(Self.reason(error)) }
        defer { Interruption.remove(stop) }
        guard exited.wait(timeout: .now() + .seconds(seconds)) == .success else {
            kill(-group, SIGKILL)
            exited.wait()
            throw failure("still running after \(seconds) s, stopped; --pdf-seconds sets the bound")
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let said = Self.firstLine(errors)
            let how = process.terminationReason == .exit ? "exit status" : "signal"
            throw failure("\(how) \(process.terminationStatus)\(said.isEmpty ? "" : ": \(said)")")
        }
        var head = [UInt8](repeating: 0, count: 5)
        guard pread(output, &head, 5, 0) == 5, head == format.signature else { throw failure("its output is not a \(kind)") }
    }

    /// The first non-empty line the program wrote to `errors`, at most 200 characters.
    private static func firstLine(_ errors: UnsafeMutablePointer<FILE>) -> String {
        rewind(errors)
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = fread(&bytes, 1, bytes.count, errors)
        let text = String(decoding: bytes[..<n], as: UTF8.self)
        return String(text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }?.prefix(200) ?? "")
    }

    /// Why the program could not be started: the system's words for the POSIX error under Foundation's, else Foundation's.
    private static func reason(_ error: Error) -> String {
        let e = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError ?? error as NSError
        guard e.domain == NSPOSIXErrorDomain else { return "cannot run it: \(e.localizedDescription)" }
        // The program exists (it was found on PATH): a missing file is the interpreter its #! line names.
        let why = e.code == Int(ENOENT) ? "the interpreter its #! line names is missing" : String(cString: strerror(Int32(e.code)))
        return "cannot run it: \(why)"
    }
}
