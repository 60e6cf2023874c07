import Foundation
import ThemeLabCore

/// The modules of a sentence-transformers folder after its Transformer (`modules.json`): a Pooling, then any Dense
/// layers, then optionally Normalize. A module the encoder does not run (a custom module, an LSTM, a second
/// Transformer) is refused naming the file and the type, rather than left out without a word.
package struct SentenceModules {
    /// The Pooling module's folder, when modules.json lists one (absent: `1_Pooling/config.json` if there, else mean).
    package var pooling: String?
    /// The Dense modules' folders, in order.
    package var dense: [String] = []
    package var normalize = false

    /// The files of the modules after the Transformer, relative to the model folder: the Pooling module's config when
    /// modules.json names one, and each Dense module's config and weights.
    package var files: [String] { (pooling.map { ["\($0)/config.json"] } ?? []) + dense.flatMap(DenseModule.files(at:)) }

    /// The module types the encoder runs, by the end of their type name (sentence-transformers 2 to 6 name them
    /// `sentence_transformers.models.Pooling` or `sentence_transformers.….pooling.Pooling`).
    package static let known = [".Transformer", ".Pooling", ".Dense", ".Normalize"]

    /// The longest modules.json read: a Transformer, a Pooling, a Normalize and up to 13 Dense layers (released
    /// models have at most two). Checked before any module is looked at.
    package static let maxModules = 16

    package init(folder: ModelFolder) throws {
        let file = "\(folder.path)/modules.json"
        guard let data = FileManager.default.contents(atPath: file) else { return }
        guard let modules = try JSONInput.parse(data, file: file) as? [[String: Any]] else {
            throw ThemeLabError.input("\(file): expected a JSON list of modules")
        }
        guard modules.count <= Self.maxModules else {
            throw ThemeLabError.input("\(file): lists \(modules.count) modules; at most \(Self.maxModules)")
        }
        var order = ""
        for (i, module) in modules.enumerated() {
            let type = module["type"] as? String ?? ""
            let path = module["path"] as? String ?? ""
            guard let kind = Self.known.first(where: { type.hasSuffix($0) }) else {
                throw ThemeLabError.input(
                    "\(file): module \(i) '\(type)' is not supported (expected \(Self.known.map { "…" + $0 }.joined(separator: ", ")))")
            }
            guard kind == ".Transformer" || (!path.contains("..") && !path.hasPrefix("/")) else {
                throw ThemeLabError.input("\(file): module \(i) has path '\(path)', which leaves the model folder")
            }
            order.append(kind.dropFirst().first!)
            switch kind {
            case ".Pooling": pooling = path.isEmpty ? "1_Pooling" : path
            case ".Dense": dense.append(path)
            case ".Normalize": normalize = true
            default: break
            }
        }
        // Transformer, Pooling, any number of Dense, then Normalize or not.
        let afterPooling = order.dropFirst(2)
        guard order.hasPrefix("TP"), afterPooling.drop(while: { $0 == "D" }).count <= 1,
            afterPooling.drop(while: { $0 == "D" }).allSatisfy({ $0 == "N" })
        else {
            throw ThemeLabError.input(
                "\(file): modules \(order.map(String.init).joined(separator: ", ")) are not Transformer, Pooling, any Dense, "
                    + "then Normalize (T, P, D, N)")
        }
    }
}

/// A Dense module (sentence-transformers' `Dense`): y = f(W·x + b) on the pooled vector, W [outputs, inputs] and b from
/// `PATH/model.safetensors` (`linear.weight`, `linear.bias`), f tanh or the identity (`PATH/config.json`).
package struct DenseModule: Sendable {
    package var path: String
    package var inputs: Int, outputs: Int
    package var bias: Bool
    package var tanh: Bool

    package init(folder: ModelFolder, path: String, inputs width: Int) throws {
        let file = "\(folder.path)/\(path)/config.json"
        guard let c = try folder.json("\(path)/config.json") else { throw ThemeLabError.input("\(file): cannot read") }
        guard let i = c["in_features"] as? Int, let o = c["out_features"] as? Int, i > 0, o > 0 else {
            throw ThemeLabError.input("\(file): 'in_features' and 'out_features' must be positive integers")
        }
        guard o <= EncoderShape.largest.hidden else {
            throw ThemeLabError.input("\(file): 'out_features' is \(o); the encoder runs sizes up to \(EncoderShape.largest.hidden)")
        }
        guard i == width else { throw ThemeLabError.input("\(file): in_features is \(i), but the vector before it has \(width) values") }
        let activation = c["activation_function"] as? String ?? "torch.nn.modules.linear.Identity"
        guard activation.hasSuffix(".Tanh") || activation.hasSuffix(".Identity") else {
            throw ThemeLabError.input("\(file): activation_function '\(activation)' is not supported (expected Tanh or Identity)")
        }
        guard FileManager.default.fileExists(atPath: "\(folder.path)/\(path)/model.safetensors") else {
            throw ThemeLabError.input("\(folder.path)/\(path): no model.safetensors (a Dense layer saved as pytorch_model.bin is not read)")
        }
        (self.path, inputs, outputs, bias, tanh) = (path, i, o, (c["bias"] as? Bool) ?? true, activation.hasSuffix(".Tanh"))
    }

    /// The files a Dense module in folder `path` reads, relative to the model folder.
    package static func files(at path: String) -> [String] { ["\(path)/config.json", "\(path)/model.safetensors"] }
}

/// The prompts of `config_sentence_transformers.json` (E5's "query: " and "passage: ", for example): the text put
/// before every sentence. By default the encoder uses the prompt `default_prompt_name` names, as sentence-transformers'
/// `encode` does, and none when it names none; a command names another with `--prompt NAME`.
package struct PromptSettings: Sendable {
    package var prompts: [String: String] = [:]
    package var defaultName: String?
    package var file: String

    package init(folder: ModelFolder) throws {
        file = "\(folder.path)/config_sentence_transformers.json"
        guard let c = try folder.json("config_sentence_transformers.json") else { return }
        if let p = c["prompts"] {
            guard let p = p as? [String: String] else { throw ThemeLabError.input("\(file): 'prompts' must map names to texts") }
            prompts = p
        }
        if let name = c["default_prompt_name"] as? String {
            guard prompts[name] != nil else { throw ThemeLabError.input("\(file): default_prompt_name '\(name)' is not one of 'prompts'") }
            defaultName = name
        }
    }

    /// The text of prompt `name` ("" for none), `defaultName`'s when nil; an unknown name is refused naming the file.
    package func text(_ name: String?) throws -> String {
        guard let name = name ?? defaultName else { return "" }
        if name == "none" { return "" }
        guard let text = prompts[name] else {
            let known = prompts.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw ThemeLabError.invalid(
                "prompt '\(name)' is not in \(file) (it has \(known.isEmpty ? "none" : known); 'none' for no prompt)")
        }
        return text
    }

    package var summary: String {
        let nonEmpty = prompts.filter { !$0.value.isEmpty }
        guard !nonEmpty.isEmpty else { return "" }
        return "; prompts \(nonEmpty.keys.sorted().joined(separator: ", "))" + (defaultName.map { " (default \($0))" } ?? "")
    }
}

/// A Dense module's weights, packed once, applied to every sentence's vector in one product on the kernel
/// (`EncoderKernel`: a vector's bits do not depend on its batch-mates).
package struct DenseLayer: Sendable {
    package let module: DenseModule
    /// The weight [outputs, inputs], packed as Wᵀ.
    package let packed: PackedMatrix
    package let bias: [Float]

    package init(_ module: DenseModule, folder: ModelFolder) throws {
        let weights = try SafeTensors(path: "\(folder.path)/\(module.path)/model.safetensors")
        self.module = module
        let weight = try weights.floats("linear.weight", shape: [module.outputs, module.inputs])
        packed = weight.withUnsafeBufferPointer {
            PackedMatrix(transposing: $0.baseAddress!, stride: module.inputs, columns: module.outputs, depth: module.inputs)
        }
        bias = module.bias ? try weights.floats("linear.bias", shape: [module.outputs]) : [Float](repeating: 0, count: module.outputs)
    }

    /// f(W·x + b) for every row x of `x`.
    package func apply(_ x: Matrix, path: KernelPath) -> Matrix {
        precondition(x.cols == module.inputs, "a Dense layer's input width")
        var y = Matrix(rows: x.rows, cols: module.outputs)
        x.storage.withUnsafeBufferPointer { xs in
            bias.withUnsafeBufferPointer { b in
                y.storage.withUnsafeMutableBufferPointer { out in
                    EncoderKernel.product(
                        path, rows: x.rows, xs.baseAddress!, lda: module.inputs, packed, EncoderKernel.Finish(bias: b.baseAddress!),
                        into: out.baseAddress!, ldc: module.outputs)
                }
            }
        }
        if module.tanh { for i in y.storage.indices { y.storage[i] = tanhf(y.storage[i]) } }
        return y
    }
}
