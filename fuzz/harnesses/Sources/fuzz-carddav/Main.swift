import FuzzSupport

@main
enum Main {
    static func main() { runLibFuzzer { fuzzCardDAV($0, $1) } }
}
