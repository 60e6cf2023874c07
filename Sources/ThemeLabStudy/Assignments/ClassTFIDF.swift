import Foundation
import ThemeLabCore

/// Words for each group: class-based TF-IDF (c-TF-IDF; M. Grootendorst, "BERTopic: Neural topic modeling with a
/// class-based TF-IDF procedure", arXiv:2203.05794, 2022, eq. 1), as BERTopic's `ClassTfidfTransformer` computes it with
/// its defaults (`bm25_weighting=False`, `reduce_frequent_words=False`). Each group's texts are joined into one document
/// of its class, and a word t of class c weighs
///
///     W_{t,c} = tf_{t,c} · log(1 + A / f_t),
///
/// tf_{t,c} the count of t in c over all word counts of c (the class's counts L1-normalised), f_t the count of t over
/// every class, and A the average number of words per class, rounded down to a whole number as BERTopic's
/// `int(X.sum(axis=1).mean())` does. Items left out as noise form one class of their own, as BERTopic's outlier topic
/// does. Words are scikit-learn's `CountVectorizer` defaults with its English stop words (`EnglishStopWords`).
package struct ClassTFIDF: Sendable {
    /// The words of every item, sorted, and each item's words as indices into them.
    package let vocabulary: [String]
    private let itemWords: [[Int32]]

    /// The words of `texts` (an item without a text has none).
    package init(texts: [String?]) {
        let words = texts.map { $0.map(Self.words) ?? [] }
        vocabulary = Set(words.joined()).sorted()
        let index = Dictionary(uniqueKeysWithValues: vocabulary.enumerated().map { ($1, Int32($0)) })
        itemWords = words.map { $0.map { index[$0]! } }
    }

    /// The words of a text as `CountVectorizer()` takes them: lower-cased, each maximal run of two or more word
    /// characters (its `token_pattern`, `(?u)\b\w\w+\b`: a letter or number of any script, or `_`), less the stop words.
    package static func words(_ text: String) -> [String] {
        var words: [String] = []
        var run = String.UnicodeScalarView()
        func end() {
            if run.count >= 2 {
                let word = String(run)
                if !EnglishStopWords.all.contains(word) { words.append(word) }
            }
            run.removeAll()
        }
        for scalar in text.lowercased().unicodeScalars {
            if isWordCharacter(scalar) { run.append(scalar) } else { end() }
        }
        end()
        return words
    }

    /// Python's `\w` on text: letters (L*), numbers (Nd, Nl, No) and `_`; a combining mark is not one.
    static func isWordCharacter(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber,
            .otherNumber:
            true
        default: s == "_"
        }
    }

    /// The c-TF-IDF weight of every word of every class of `classes` (one class per item, −1 noise as a class of its own):
    /// class → word index → weight.
    package func weights(classes: [Int32]) -> [Int32: [Int32: Double]] {
        var counts: [Int32: [Int32: Double]] = [:]
        for (item, c) in classes.enumerated() {
            for w in itemWords[item] { counts[c, default: [:]][w, default: 0] += 1 }
        }
        var frequency: [Int32: Double] = [:]
        for bag in counts.values { for (w, n) in bag { frequency[w, default: 0] += n } }
        let classCount = Set(classes).count
        let total = counts.values.reduce(0) { $0 + $1.values.reduce(0, +) }
        let average = classCount > 0 ? (total / Double(classCount)).rounded(.down) : 0
        return counts.mapValues { bag in
            let size = bag.values.reduce(0, +)
            return Dictionary(uniqueKeysWithValues: bag.map { w, n in (w, n / size * log(1 + average / frequency[w]!)) })
        }
    }

    /// Each group's `count` words of largest weight, largest first (a tie by the word), noise (−1) left out.
    package func keywords(classes: [Int32], count: Int = Self.keywordCount) -> [Int32: [String]] {
        var out: [Int32: [String]] = [:]
        for (c, bag) in weights(classes: classes) where c >= 0 {
            out[c] = bag.sorted { ($1.value, vocabulary[Int($0.key)]) < ($0.value, vocabulary[Int($1.key)]) }.prefix(count)
                .map { vocabulary[Int($0.key)] }
        }
        return out
    }

    /// How many words a group is given.
    package static let keywordCount = 5
}
