import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

let plotCommand = Command(
    summary: "regenerate SVG plots from a results file, without recomputing",
    help: """
        usage: themelab plot --results R.json [--out DIR] [--pdf]
               themelab plot --bench SCALE.jsonl [--out FILE.svg]

        Writes, for every corpus × source × space in R.json: the similarity histogram
        (related vs unrelated, each normalised to its class, with a dashed line per threshold
        rule), the threshold ablation (ARI and pair F1 per rule and grouping, and the groupings
        that choose their own cuts; with replicates each bar is their mean with its 95% interval)
        and ARI against the threshold (each grouping's curve, its best cut, every rule's
        threshold); and, for a layer sweep, anisotropy by layer. Default DIR: a plots/ folder
        beside R.json. A method has one colour in every figure.
          --pdf    also a PDF beside each SVG, made by rsvg-convert (Debian's librsvg2-bin); PDFs
                   are not part of results/, whose bytes must not depend on that program

        With --bench: fits the cost model (time and peak memory as functions of N and d) to the
        `themelab bench pairs --mode full` lines in SCALE.jsonl, prints the formulas and a table
        of measured against predicted, and writes the log–log plot of time vs N (default:
        SCALE.svg beside the file). Experiments/bench/scale does both.
        """,
    options: ["results", "bench", "out"],
    switches: ["pdf"]
) { args, io in
    if let bench = args["bench"] {
        let points = try CostModel.Point.read(path: bench)
        let model = try CostModel(fitting: points)
        io.print(model.markdown(points), terminator: "")
        let out = args["out"] ?? URL(fileURLWithPath: bench).deletingPathExtension().appendingPathExtension("svg").path
        try CommandPaths(reads: [bench], writes: [(out, .file)]).check()
        try AtomicFile.write(model.plot(points), to: out)
        io.note("wrote \(out)")
        return
    }
    let path = try args.required("results")
    let results = try JSONOutput.read(AnalysisResults.self, path: path, expected: "ThemeLab results file")
    let out = args["out"] ?? URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("plots").path
    let converter = try args.flag("pdf") ? PDFConverter.locate() : nil
    let written = try SVGPlot.writeAll(results, folder: out)
    for svg in written { try converter?.convert(svg) }
    io.note("wrote \(written.count) plots to \(out)\(converter == nil ? "" : ", each with a PDF")")
}

/// rsvg-convert, run on the harness's own SVG files (arguments, never a shell), to write a PDF beside each.
struct PDFConverter {
    var program: String

    /// The program on PATH, or a refusal saying how to install it.
    static func locate() throws -> PDFConverter {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/rsvg-convert") {
            return PDFConverter(program: "\(folder)/rsvg-convert")
        }
        throw ThemeLabError.usage("--pdf needs rsvg-convert on PATH (apt-get install librsvg2-bin)")
    }

    /// FILE.pdf beside FILE.svg.
    func convert(_ svg: String) throws {
        let pdf = String(svg.dropLast(4)) + ".pdf"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["--format", "pdf", "--output", pdf, "--", svg]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ThemeLabError.input("\(svg): rsvg-convert could not make a PDF of it") }
    }
}
