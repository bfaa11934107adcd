import FuzzSupport

@main
enum Main {
    static func main() { runLibFuzzer { fuzzMCP($0, $1) } }
}
