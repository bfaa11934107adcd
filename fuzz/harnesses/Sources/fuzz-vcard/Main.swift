import FuzzSupport

@main
enum Main {
    static func main() { runLibFuzzer { fuzzVCard($0, $1) } }
}
