import Foundation
import Testing
import ThemeLabStudy

/// The words of each group (c-TF-IDF, `ClassTFIDF`): a case worked by hand, and three cases against BERTopic's
/// c-TF-IDF built from scikit-learn's CountVectorizer and normalize (Fixtures/sklearn-ctfidf.json, made by
/// scripts/fixtures/make_ctfidf_fixtures.py).
@Suite struct GroupKeywordsTests {
    /// Three groups of fruit. Counts: group 0 apples 3, pears 2, plums 2 (7 words); group 1 apples 2, pears 2, cherries 1,
    /// grapes 2 (7); group 2 apples 2, pears 1, melons 1 (4). A = ⌊18 / 3⌋ = 6; f: apples 7, pears 5, plums 2, grapes 2,
    /// cherries 1, melons 1. So W(plums, 0) = 2/7·ln(1 + 6/2) = 0.39608, W(apples, 0) = 3/7·ln(1 + 6/7) = 0.26530,
    /// W(pears, 0) = 2/7·ln(1 + 6/5) = 0.22527, W(melons, 2) = 1/4·ln 7 = 0.48648, W(apples, 2) = 2/4·ln(13/7) = 0.30952,
    /// W(pears, 2) = 1/4·ln 2.2 = 0.19711; "the" and "and" are stop words, "a" too short.
    @Test func aCaseWorkedByHand() {
        let texts = [
            "apples pears apples plums", "apples pears plums", "apples pears cherries", "apples pears grapes grapes",
            "the apples and melons",
            "a apples pears",
        ]
        let words = ClassTFIDF(texts: texts)
        #expect(words.vocabulary == ["apples", "cherries", "grapes", "melons", "pears", "plums"])
        let w = words.weights(classes: [0, 0, 1, 1, 2, 2])
        func weight(_ word: String, _ c: Int32) -> Double { w[c]![Int32(words.vocabulary.firstIndex(of: word)!)]! }
        for (word, c, expected) in [
            ("plums", 0, 0.39608), ("apples", 0, 0.26530), ("pears", 0, 0.22527), ("melons", 2, 0.48648), ("apples", 2, 0.30952),
            ("pears", 2, 0.19711),
        ] as [(String, Int32, Double)] {
            #expect(abs(weight(word, c) - expected) < 5e-6, "\(word) in \(c): \(weight(word, c))")
        }
        #expect(
            words.keywords(classes: [0, 0, 1, 1, 2, 2], count: 3) == [
                0: ["plums", "apples", "pears"], 1: ["grapes", "cherries", "pears"], 2: ["melons", "apples", "pears"],
            ])
        // Noise is a class of its own for the weights and has no words of its own.
        #expect(words.keywords(classes: [0, 0, -1, -1, 2, 2])[-1] == nil)
    }

    struct Fixture: Decodable {
        struct Case: Decodable {
            var name: String
            var texts: [String]
            var classes: [Int32]
            var vocabulary: [String]
            var labels: [Int32]
            var average: Int
            var weights: [[Double]]
            var keywords: [String: [String]]
        }
        var cases: [Case]
    }

    /// The same vocabulary as CountVectorizer(stop_words="english"), every weight within 1e-12 and the same five words
    /// per group, noise included.
    @Test func matchesBERTopicsTransformerBuiltFromScikitLearn() throws {
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: URL(fileURLWithPath: fixture("sklearn-ctfidf.json"))))
        #expect(fixture.cases.count == 3)
        for c in fixture.cases {
            let words = ClassTFIDF(texts: c.texts)
            #expect(words.vocabulary == c.vocabulary, "\(c.name)")
            let w = words.weights(classes: c.classes)
            for (row, label) in c.labels.enumerated() {
                for (t, expected) in c.weights[row].enumerated() {
                    let mine = w[label]?[Int32(t)] ?? 0
                    #expect(abs(mine - expected) < 1e-12, "\(c.name) class \(label) \(c.vocabulary[t]): \(mine) vs \(expected)")
                }
                #expect(
                    words.keywords(classes: c.classes.map { $0 < 0 ? 99 : $0 })[label < 0 ? 99 : label] == c.keywords[String(label)],
                    "\(c.name) \(label)")
            }
        }
    }

    /// Words as CountVectorizer cuts them: lower-cased runs of two or more letters, digits or underscores.
    @Test func wordsAreCountVectorizersTokens() {
        #expect(ClassTFIDF.words("Don't STOP, x-ray_2 café 42 a") == ["don", "stop", "ray_2", "café", "42"])
        #expect(ClassTFIDF.words("e\u{301}te\u{301}") == ["te"])  // a combining mark is no word character, as in Python
    }
}
