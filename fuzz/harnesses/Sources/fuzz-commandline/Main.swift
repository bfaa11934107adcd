import FuzzSupport

@main
enum Main {
    static func main() { runLibFuzzer { fuzzCommandLine($0, $1) } }
}
