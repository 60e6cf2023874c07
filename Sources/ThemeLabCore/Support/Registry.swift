import Foundation

/// One entry of an extension point's registry (a space, threshold rule, grouping, corpus, regrouping policy or
/// encoder architecture): how it is written, what it is, examples the conformance suite runs, and its factory.
package struct RegistryEntry<Value: Sendable>: Sendable {
    /// The base name (`leiden`).
    package let name: String
    /// Every way to write it, parameters as letters (`leiden(k)`, `leiden(k,γ)`): what help texts, errors and docs list.
    package let forms: [String]
    /// Its arguments in order, with the values each may take (checked by `Registry.parse` before `make` runs).
    package let parameters: [Parameter]
    /// One line for help texts and docs.
    package let summary: String
    /// Names the conformance suite runs (each must parse).
    package let examples: [String]
    /// The value a parsed name denotes; throws a usage error for a bad argument.
    package let make: @Sendable (RuleName) throws -> Value

    package init(
        _ name: String, forms: [String]? = nil, parameters: [Parameter] = [], summary: String, examples: [String]? = nil,
        make: @escaping @Sendable (RuleName) throws -> Value
    ) {
        self.name = name
        self.forms = forms ?? [name]
        self.parameters = parameters
        self.summary = summary
        self.examples = examples ?? [name]
        self.make = make
    }
}

/// A parameter of a registry entry and the values it may take, declared next to the entry; one validator
/// (`Registry.parse`) checks every entry's arguments against them, as scikit-learn's `_parameter_constraints` are.
package struct Parameter: Sendable {
    /// How messages name it: `k`, `the minimum cluster size m`.
    package let label: String
    package let constraint: Constraint
    /// What to give when it is missing (`the number of neighbours`); nil when it may be left out.
    package let required: String?

    package init(_ label: String, _ constraint: Constraint, required: String? = nil) {
        (self.label, self.constraint, self.required) = (label, constraint, required)
    }

    /// A whole number from 1 to `RuleName.maxCount` (bins, neighbours, components).
    package static func count(_ label: String, from low: Int = 1, required: String? = nil) -> Parameter {
        Parameter(label, .count(low...RuleName.maxCount), required: required)
    }

    /// Why `value` is outside the parameter's values, or nil.
    package func problem(_ value: Double) -> String? {
        let written: Any = value == value.rounded() && abs(value) < 1e15 ? Int(value) : value
        return constraint.problem(written, at: label).map { "\(label) \($0.message)" }
    }
}

/// The entries of one extension point, in the order help texts, docs and reports list them. Parsing a name, the
/// "expected …" list of its error, every help list and the conformance suite's cases all come from here.
package struct Registry<Value: Sendable>: Sendable {
    /// What an entry is called in messages ("threshold rule").
    package let kind: String
    package let entries: [RegistryEntry<Value>]

    package init(kind: String, _ entries: [RegistryEntry<Value>]) {
        precondition(Set(entries.map(\.name)).count == entries.count, "two \(kind) entries share a name")
        self.kind = kind
        self.entries = entries
    }

    /// Every form of every entry.
    package var forms: [String] { entries.flatMap(\.forms) }

    /// Every example of every entry.
    package var examples: [String] { entries.flatMap(\.examples) }

    /// The value `text` names: an unknown name is refused with the list of forms, arguments out of their parameters'
    /// ranges or a missing one naming the parameter; the entry's factory then reads arguments within range.
    package func parse(_ text: String) throws -> Value {
        let name = try RuleName(text)
        guard let entry = entries.first(where: { $0.name == name.base }) else {
            throw ThemeLabError.invalid("unknown \(kind) '\(text)' (expected \(forms.joined(separator: ", ")))")
        }
        try name.takes(atMost: entry.parameters.count)
        for (p, value) in zip(entry.parameters, name.arguments) {
            if let why = p.problem(value) { throw ThemeLabError.invalid("\(name.text): \(why)") }
        }
        if let p = entry.parameters.dropFirst(name.arguments.count).first(where: { $0.required != nil }), let what = p.required {
            throw ThemeLabError.invalid("\(name.text): give \(what), \(entry.forms[0])")
        }
        return try entry.make(name)
    }

    /// The forms as help-text lines (`wrappedList`).
    package func wrappedForms(width: Int = 70, indent: Int = 0, suffix: String = "") -> String {
        wrappedList(forms, width: width, indent: indent, suffix: suffix)
    }
}

/// `items` joined by ", " into lines of at most `width` characters, every line after the first after `indent` spaces,
/// `suffix` after the last item, the first line shorter by `used` (what precedes the list on it): a list in a help text.
package func wrappedList(_ items: [String], width: Int = 70, indent: Int = 0, suffix: String = "", used: Int = 0) -> String {
    var lines: [String] = []
    var line = ""
    var room = width - used
    for (i, item) in items.enumerated() {
        let piece = item + (i == items.count - 1 ? suffix : ",")
        if !line.isEmpty && line.count + 1 + piece.count > room {
            lines.append(line)
            line = piece
            room = width
        } else {
            line += (line.isEmpty ? "" : " ") + piece
        }
    }
    lines.append(line)
    return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
}
