import ErrorStreaming
import Foundation
import Testing

/// A ``RemoteError`` keeps its members in one shared storage (copies share it until one is written): it must still
/// behave as a value.
struct RemoteErrorValueTests {
    private func sample() -> RemoteError {
        RemoteError(
            typeName: "payments.CardDeclined", message: "order 12 failed", codeText: "P-402",
            category: .userActionable, logMessage: "checkout failed", source: "checkout",
            provenance: Provenance(time: Date(timeIntervalSince1970: 1_000), service: "shop", receivedFrom: "file a.log"))
    }

    @Test func aWrittenCopyLeavesTheOriginalAsItWas() {
        let original = sample()
        var copy = original
        copy.message = "order 13 failed"
        copy.provenance.service = "billing"
        copy.codeText = nil
        #expect(original.message == "order 12 failed")
        #expect(original.provenance.service == "shop")
        #expect(original.codeText == "P-402")
        #expect(copy.message == "order 13 failed")
        #expect(copy.provenance.service == "billing")
        #expect(copy.codeText == nil)
        #expect(copy != original)
    }

    @Test func equalMembersAreEqualAndHashAlikeWhateverTheirStorage() {
        let one = sample()
        let other = sample()
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(Set([one, other, one]).count == 1)
        var changed = other
        changed.severity = .critical
        #expect(changed != one)
        changed.severity = one.severity
        #expect(changed == one)
    }

    @Test func theFingerprintIsMadeOnceFromWhatItWasMadeWith() {
        var error = sample()
        let fingerprint = error.fingerprint
        error.message = "something else entirely"
        #expect(error.templateFingerprint == fingerprint)
        error.producerFingerprint = "mine"
        #expect(error.fingerprint == "mine")
        #expect(sample().fingerprint == fingerprint)
    }
}
