import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// What one job asks Slurm for, and the prediction behind it (written beside the request in the script).
package struct SlurmResources: Sendable, Equatable {
    package var cpus: Int
    package var memoryMiB: Int
    package var minutes: Int
    package var reason: String

    /// The largest request written: 16 TiB and a year, as `--mem` and `--time` allow.
    package static let maxMemoryMiB = 16_777_216
    package static let maxMinutes = 525_600

    /// A request from a predicted peak and run time with room for a slower node: 1.25 × memory + 256 MiB,
    /// 3 × time + 10 minutes. `memoryMiB`/`minutes` replace the request when given (the user's `--mem`, `--time`).
    /// A prediction that is negative, not finite or above the largest request is refused (a cost model fitted to
    /// figures that are off), never turned into a number of its own.
    package init(
        cpus: Int, predictedMiB: Double, predictedSeconds: Double, reason: String, memoryMiB: Int? = nil, minutes: Int? = nil
    ) throws {
        let memory = memoryMiB.map(Double.init) ?? (1.25 * predictedMiB + 256).rounded(.up)
        let time = minutes.map(Double.init) ?? (3 * predictedSeconds / 60 + 10).rounded(.up)
        guard predictedMiB >= 0, predictedSeconds >= 0, memory <= Double(Self.maxMemoryMiB), time <= Double(Self.maxMinutes) else {
            throw ThemeLabError.input(
                "the cost model predicts \(predictedMiB) MiB and \(predictedSeconds) s for \(SlurmBatch.commentText(reason)): more than a "
                    + "request can be (\(Self.maxMemoryMiB) MiB, \(Self.maxMinutes) minutes); check --cost-model, or give --mem and --time")
        }
        self.cpus = cpus
        self.memoryMiB = Int(memory)
        self.minutes = Int(time)
        self.reason =
            reason
            + String(format: "; predicted %.0f MiB, %.0f s", predictedMiB, predictedSeconds)
            + (memoryMiB == nil && minutes == nil ? "; asked 1.25 × memory + 256 MiB, 3 × time + 10 min" : "; --mem/--time given")
    }

    /// Slurm's D-HH:MM:SS.
    package var timeLimit: String {
        String(format: "%d-%02d:%02d:00", minutes / 1440, minutes / 60 % 24, minutes % 60)
    }
}

/// A job array and the job that folds its parts, as files in one folder:
///   prepare.sbatch a job the array waits for, when there is one (the pass's bridge forest), run only while its
///                  output file is missing
///   array.sbatch   one task per shard, each writing parts/shard-I-of-N.json (atomically)
///   finish.sbatch  the merge or gather over parts/shard-*-of-N.json
///   submit         submits the array (all tasks, or those given: `submit 2` or `submit 1,3`) and finish.sbatch
///                  with --dependency=afterok on it, cancelling a finish job of an earlier submit still pending
/// Paths are absolute and every job starts in the folder the batch was made from, as a local run would.
package struct SlurmBatch: Sendable {
    package var name: String
    /// Where the scripts, parts/ and logs/ go.
    package var folder: String
    package var workingDirectory: String
    package var partition: String?
    package var account: String?
    package var tasks: Int
    package var task: SlurmResources
    package var finish: SlurmResources
    /// One task's command; `SlurmBatch.taskIndex` and `SlurmBatch.partPath` stand for the array index and its part file.
    package var taskCommand: [String]
    /// The finish command before and after the list of parts.
    package var finishCommand: (before: [String], after: [String])
    /// A job before the array, the file it writes (absolute) and what it asks for.
    package var prepare: (command: [String], output: String, resources: SlurmResources)?

    package static let taskIndex = "\u{0}TASK"
    package static let partPath = "\u{0}PART"

    package init(
        name: String, folder: String, workingDirectory: String, partition: String?, account: String?, tasks: Int,
        task: SlurmResources, finish: SlurmResources, taskCommand: [String], finishCommand: (before: [String], after: [String]),
        prepare: (command: [String], output: String, resources: SlurmResources)? = nil
    ) {
        self.prepare = prepare
        self.name = name
        self.folder = folder
        self.workingDirectory = workingDirectory
        self.partition = partition
        self.account = account
        self.tasks = tasks
        self.task = task
        self.finish = finish
        self.taskCommand = taskCommand
        self.finishCommand = finishCommand
    }

    package var partsFolder: String { folder + "/parts" }

    /// The text of a batch script: the #SBATCH header, then `body`.
    package func script(job: String, resources: SlurmResources, array: Bool, body: [String]) -> String {
        var lines = [
            "#!/usr/bin/env bash",
            "# Written by themelab slurm (\(name)). Request for \(Self.commentText(resources.reason)).",
            "#SBATCH --job-name=\(name)-\(job)",
            "#SBATCH --cpus-per-task=\(resources.cpus)",
            "#SBATCH --mem=\(resources.memoryMiB)M",
            "#SBATCH --time=\(resources.timeLimit)",
            "#SBATCH --chdir=\(workingDirectory)",
            "#SBATCH --output=\(folder)/logs/\(job)-\(array ? "%A_%a" : "%j").out",
        ]
        if let partition { lines.append("#SBATCH --partition=\(partition)") }
        if let account { lines.append("#SBATCH --account=\(account)") }
        if array { lines.append("#SBATCH --array=0-\(tasks - 1)") }
        lines += ["set -euo pipefail"] + body
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the folder's scripts (and creates parts/ and logs/).
    package func write() throws {
        let scripts = try render()
        for sub in ["parts", "logs"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true)
        }
        try AtomicFile.write(scripts.map { (Data($0.text.utf8), "\(folder)/\($0.file)") })
        chmod("\(folder)/submit", 0o755)
    }

    /// How every line of a generated script that is not a comment or an #SBATCH line starts: each is written by the
    /// harness, and every value in it is quoted by `shellQuote`, which keeps it on its line.
    package static let fixedLinePrefixes = [
        "set -euo pipefail", "exec ", "shopt -s nullglob", "parts=(", "if ", "    printf ", "    exit 1", "    scancel ", "fi", "cd ",
        "tasks=", "array=", "finish=", "echo ", "after=", "    prepare=", "    echo ", "    after=",
    ]

    /// The three scripts' names and texts; refused when a value cannot go into them.
    package func render() throws -> [(file: String, text: String)] {
        for (what, value) in [
            ("job name", name), ("folder", folder), ("working folder", workingDirectory), ("partition", partition ?? ""),
            ("account", account ?? ""),
        ]
        where value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            throw ThemeLabError.invalid(
                "the \(what) \(String(reflecting: value)) holds a space, newline or control character, which an #SBATCH line cannot carry")
        }
        for word in taskCommand + finishCommand.before + finishCommand.after + (prepare?.command ?? []) where word != Self.partPath {
            guard !word.replacingOccurrences(of: Self.taskIndex, with: "").contains("\u{0}") else {
                throw ThemeLabError.invalid(
                    "a job's argument \(String(reflecting: word)) holds a NUL byte, which no command line can carry")
            }
        }
        let part = Self.shellQuote(partsFolder) + "/shard-\"$SLURM_ARRAY_TASK_ID\"-of-\(tasks).json"
        let words = taskCommand.map { word -> String in
            if word == Self.partPath { return part }
            if word.contains(Self.taskIndex) {
                return word.components(separatedBy: Self.taskIndex).map { $0.isEmpty ? "" : Self.shellQuote($0) }
                    .joined(separator: "\"$SLURM_ARRAY_TASK_ID\"")
            }
            return Self.shellQuote(word)
        }
        let array = script(job: "array", resources: task, array: true, body: ["exec " + words.joined(separator: " ")])
        let finishBody = [
            "shopt -s nullglob",
            "parts=(\(Self.shellQuote(partsFolder))/shard-*-of-\(tasks).json)",
            "if ((${#parts[@]} == 0)); then",
            "    printf '%s\\n' \(Self.shellQuote("themelab: no parts in \(partsFolder) (did the array run?)")) >&2",
            "    exit 1",
            "fi",
            "exec "
                + (finishCommand.before.map(Self.shellQuote) + ["\"${parts[@]}\""] + finishCommand.after.map(Self.shellQuote))
                .joined(separator: " "),
        ]
        let finishScript = script(job: "finish", resources: finish, array: false, body: finishBody)
        let prepareScript = prepare.map {
            script(
                job: "prepare", resources: $0.resources, array: false,
                body: ["exec " + $0.command.map(Self.shellQuote).joined(separator: " ")])
        }
        return [("array.sbatch", array), ("finish.sbatch", finishScript), ("submit", submitScript())]
            + (prepareScript.map { [("prepare.sbatch", $0)] } ?? [])
    }

    /// The submit script: the prepare job while its file is missing (a killed one leaves none: its file is written
    /// atomically), the array after it, the finish job after the array.
    package func submitScript() -> String {
        let prepareLines =
            prepare.map {
                """

                if [ ! -s \(Self.shellQuote($0.output)) ]; then
                    prepare=$(sbatch --parsable prepare.sbatch)
                    after=(--dependency=afterok:"${prepare%%;*}")
                    echo "submitted prepare job ${prepare%%;*} ($(basename \(Self.shellQuote($0.output))))"
                fi
                """
            } ?? ""
        return """
            #!/usr/bin/env bash
            # Written by themelab slurm (\(name)): submits array.sbatch (tasks 0-\(tasks - 1), or those given, e.g.
            # `submit 2` after task 2 failed) and finish.sbatch after it (--dependency=afterok). A finish job of an earlier
            # submit that is still pending (it waits for a task that failed or was cancelled) is cancelled first.
            set -euo pipefail
            cd \(Self.shellQuote(folder))
            tasks=${1:-0-\(tasks - 1)}
            if [ -s finish.jobid ] && [ -n "$(squeue -h -j "$(cat finish.jobid)" -t PENDING -o %i 2>/dev/null)" ]; then
                scancel "$(cat finish.jobid)"
            fi
            after=()\(prepareLines)
            array=$(sbatch --parsable "${after[@]}" --array="$tasks" array.sbatch)
            array=${array%%;*}
            finish=$(sbatch --parsable --dependency=afterok:"$array" finish.sbatch)
            finish=${finish%%;*}
            echo "$array" >array.jobid
            echo "$finish" >finish.jobid
            echo "submitted array job $array (tasks $tasks) and finish job $finish after it"

            """
    }

    /// `text` for a `#` comment line: line breaks and other control characters written as `\u{…}` escapes, so that no
    /// part of it can start a line of its own (where bash would run it, or sbatch stop reading #SBATCH lines).
    package static func commentText(_ text: String) -> String {
        text.unicodeScalars.map { c in breaksLine(c) ? "\\u{\(String(c.value, radix: 16))}" : String(c) }.joined()
    }

    /// `word` quoted for bash: as it is when it is plainly safe, else in single quotes, where bash expands nothing. The
    /// one function that writes a value into a generated script. A word with a line break or another control character
    /// goes into ANSI-C quotes ($'…') with that character escaped, so that every value stays on its line.
    package static func shellQuote(_ word: String) -> String {
        let safe = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:+%@")
        if !word.isEmpty && word.unicodeScalars.allSatisfy(safe.contains) { return word }
        guard word.unicodeScalars.contains(where: Self.breaksLine) else {
            return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let escaped = word.unicodeScalars.map { c -> String in
            if c == "\\" || c == "'" { return "\\" + String(c) }
            return Self.breaksLine(c) ? String(format: "\\U%08x", c.value) : String(c)
        }
        return "$'" + escaped.joined() + "'"
    }

    /// A control, format or line/paragraph-separator character: one that could start a new line or hide one.
    package static func breaksLine(_ c: Unicode.Scalar) -> Bool {
        [.control, .format, .lineSeparator, .paragraphSeparator].contains(c.properties.generalCategory)
    }
}
