/// A question a scene asks before it does something a person may regret (delete a contact
/// named by part of its name, drop unsaved changes): data, like every ViewModel, which each
/// front end renders its own way.
///
/// A front end that can ask (the REPL, when `Session.canAsk` is set) puts `question` to the
/// person and runs `confirmed` on yes, or shows `declined` on no. Where nobody can be asked
/// (a script, JSON-RPC), the session decides by `otherwise`: a refusal shown as an error that
/// says how to confirm, or going ahead as if confirmed.
public struct ConfirmationRequest: ViewModel, Equatable {
    public static let kind = "confirmation"

    /// What happens where nobody can be asked.
    public enum Otherwise: String, Encodable, Sendable {
        /// Nothing is done; `refusal` (an error) says how to confirm.
        case refuse
        /// `confirmed` runs at once: today's behaviour, said out loud by its own messages.
        case proceed
    }

    /// "Delete Bob Smith?"
    public let question: String
    /// The same action, confirmed: run when the answer is yes.
    public let confirmed: ActionCall
    /// Shown when the answer is no ("Nothing deleted").
    public let declined: Message
    public let otherwise: Otherwise
    /// Shown where nobody can be asked and `otherwise` is `.refuse`: an error naming the way to confirm.
    public let refusal: Message

    public init(question: String, confirmed: ActionCall, declined: Message, otherwise: Otherwise, refusal: Message) {
        self.question = question; self.confirmed = confirmed; self.declined = declined
        self.otherwise = otherwise; self.refusal = refusal
    }

    /// Drawn where nobody was asked: the refusal.
    public var layout: DisplayLayout { .message(refusal) }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(question, forKey: .question)
        try container.encode(refusal.text, forKey: .text)
    }

    private enum Keys: String, CodingKey { case question, text }
}
