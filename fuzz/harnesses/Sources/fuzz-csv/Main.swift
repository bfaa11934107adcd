import FuzzSupport

@main
enum Main {
    static func main() { runLibFuzzer { fuzzCSV($0, $1) } }
}
