import FuzzSupport

@main
enum Main {
    static func main() { runLibFuzzer { fuzzJSON($0, $1) } }
}
