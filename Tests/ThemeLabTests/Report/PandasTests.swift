import Foundation
import Testing
import ThemeLabCore

/// What pandas makes of the harness's CSVs, with Debian's interpreter and pandas (`python3-pandas`, which
/// scripts/bootstrap installs; not the pyenv `python3` on PATH): every CSV an experiment, an analysis and `reproduce`
/// write loads with one type a column and no warning, the assignments with integer groups and booleans, gzip-compressed
/// too; and docs/pandas.md's recipe prints what the page shows.
@Suite struct PandasTests {
    static let python = "/usr/bin/python3"

    /// For each file: its dtypes, and every problem found (a warning, a text column holding other values than text, a
    /// wrong assignments dtype, a noise row whose group is not −1).
    static let checker = """
        import json, sys, warnings
        import pandas as pd
        out = {}
        for path in sys.argv[1:]:
            problems = []
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                if ".jsonl" in path:
                    df = pd.read_json(path, lines=True, dtype={"id": str, "text": str, "label": str})
                else:
                    df = pd.read_csv(path)
            problems += [f"warning: {w.message}" for w in caught]
            for c in df.columns:
                if df[c].dtype == object:
                    kinds = {type(v).__name__ for v in df[c].dropna()}
                    if len(kinds) > 1 or (kinds and kinds != {"str"} and c != "keywords"):
                        problems.append(f"{c}: mixed {sorted(kinds)}")
            if "group_size" in df.columns or "groupSize" in df.columns:
                missing = [c for c in ["group", "noise", "central"] if c not in df.columns]
                problems += [f"no {c} column" for c in missing]
                for c, kind in [] if missing else [("group", "int64"), ("noise", "bool"), ("central", "bool")]:
                    if str(df[c].dtype) != kind:
                        problems.append(f"{c}: {df[c].dtype}")
                if not missing:
                    if (df.loc[df["noise"], "group"] != -1).any() or (df.loc[~df["noise"], "group"] < 0).any():
                        problems.append("noise and group disagree")
                    out[path + " noise rows"] = int(df["noise"].sum())
            out[path] = {"dtypes": {c: str(t) for c, t in df.dtypes.items()}, "problems": problems}
        print(json.dumps(out))
        """

    /// Every CSV of the committed results, of an experiment with replicates and assignments (hostile texts, a grouping
    /// that leaves noise) and of an analysis with its assignments as CSV, gzip CSV and gzip JSON Lines.
    @Test func everyCSVTheHarnessWritesLoadsWithStableDtypes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python), "run scripts/bootstrap (python3-pandas)")
        let (folder, file) = try ExportTests.hostileCorpus()
        let synth = CLI.run([
            "synth", "--out-corpus", folder + "/n.jsonl", "--out-embeddings", folder + "/n.npy", "--topics", "6,5,4,3", "--dims", "32",
            "--noise", "3", "--topic-strength", "0.4",
        ])
        try #require(synth.status == 0, "\(synth.stderr)")
        let experiment = """
            {"name": "exports", "corpora": [{"name": "file", "path": \(String(reflecting: URL(fileURLWithPath: file).lastPathComponent))}],
             "encoders": [{"embeddings": "x.npy"}], "spaces": ["raw", "centred"], "thresholds": ["otsu", "percentile(90)"],
             "groupings": ["average", "leader", "hdbscan(3)"], "replicates": 3,
             "resample": {"scheme": "stratified-subsample", "fraction": 0.8}, "shuffles": 2, "assignments": true}
            """
        try AtomicFile.write(experiment, to: folder + "/exports.json")
        let ablate = CLI.run(["ablate", folder + "/exports.json", "--out", folder + "/out"])
        try #require(ablate.status == 0, "\(ablate.stderr)")
        var written = ["a.csv", "a.csv.gz", "a.jsonl.gz"].map { folder + "/" + $0 }
        for path in written {
            let r = CLI.run([
                "analyze", "--corpus", folder + "/n.jsonl", "--embeddings", folder + "/n.npy", "--thresholds", "otsu",
                "--groupings", "average,hdbscan(4)", "--out", folder + "/analysis", "--assignments", path,
            ])
            try #require(r.status == 0, "\(r.stderr)")
        }
        written += try Self.csvs(below: folder + "/out") + Self.csvs(below: folder + "/analysis")
        #expect(written.count >= 7, "\(written)")
        let report = try Self.check(written)
        for path in written where path.hasSuffix(".gz") {
            #expect((report[path + " noise rows"] as? Int ?? 0) > 0, "\(path): the test's analysis left nothing out as noise")
        }
        let dtypes = try #require((report[folder + "/a.csv.gz"] as? [String: Any])?["dtypes"] as? [String: String])
        print("pandas dtypes of an assignments .csv.gz:", dtypes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" })
    }

    /// Every CSV `reproduce` wrote into the committed results/.
    @Test func theCommittedResultsLoadWithStableDtypes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python), "run scripts/bootstrap (python3-pandas)")
        let committed = try Self.csvs(below: DocExample.root + "/results")
        #expect(committed.count >= 5, "\(committed)")
        _ = try Self.check(committed)
    }

    /// The checker's report on `paths`, each expected to have no problem.
    static func check(_ paths: [String]) throws -> [String: Any] {
        let r = try CLI.launch(executable: Self.python, ["-c", Self.checker] + paths, environment: [:])
        try #require(r.status == 0, "\(r.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        for path in paths {
            let entry = try #require(report[path] as? [String: Any], "\(path)")
            #expect((entry["problems"] as? [String]) == [], "\(path): \(entry["problems"] ?? "")")
        }
        return report
    }

    /// The CSV files below `folder`, gzip-compressed ones too.
    static func csvs(below folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".csv") || $0.hasSuffix(".csv.gz") }.sorted()
            .map { folder + "/" + $0 }
    }

    /// docs/pandas.md: its `sh test` block run in a temporary folder, then its Python block there with Debian's
    /// interpreter, which prints the `text` block that follows it.
    @Test func thePandasRecipeRunsAndPrintsWhatThePageShows() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python), "run scripts/bootstrap (python3-pandas)")
        let blocks = DocExample.blocks(of: "docs/pandas.md")
        let shell = try #require(blocks.first { $0.info == "sh test" })
        let code = try #require(blocks.firstIndex { $0.info == "python" })
        try #require(blocks.indices.contains(code + 1) && blocks[code + 1].info == "text")
        let folder = temporaryFolder()
        for command in DocExample.commands(in: shell.body) {
            var previous: String?
            let words = command.dropFirst().map { word in
                defer { previous = word }
                return DocExample.resolve(word, after: previous, in: folder)
            }
            let r = CLI.run(Array(words))
            try #require(r.status == 0, "\(r.stderr)")
        }
        let r = try CLI.launch(
            executable: Self.python, ["-c", blocks[code].body.joined(separator: "\n")], environment: [:], workingDirectory: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let shown = blocks[code + 1].body.joined(separator: "\n")
        #expect(r.stdout.trimmingCharacters(in: .newlines) == shown.trimmingCharacters(in: .newlines), "\(r.stdout)")
    }
}
