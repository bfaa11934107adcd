/// The words nearest a mistyped one, for "did you mean ...?".
public enum Suggestion {
    /// The candidates at the smallest edit distance from `typed` (a swap of two neighbours
    /// counts as one edit, the commonest slip), if that distance is small for its length:
    /// one edit for words of up to four letters, two beyond. Case is ignored.
    public static func nearest(to typed: String, among candidates: [String]) -> [String] {
        let word = Array(typed.lowercased())
        guard !word.isEmpty else { return [] }
        let limit = word.count <= 4 ? 1 : 2
        var best: [String] = []
        var bestDistance = limit + 1
        for candidate in candidates where !best.contains(candidate) {
            let distance = Self.distance(word, Array(candidate.lowercased()))
            if distance < bestDistance {
                best = [candidate]; bestDistance = distance
            } else if distance == bestDistance {
                best.append(candidate)
            }
        }
        return best
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
