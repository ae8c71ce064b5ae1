package rocelab.fabric.flowcontrol.credit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The root of a wait for credits travels on the credit update that ends the wait and is kept by the transmitter one
 * credit hop further; an update that does not end the stall changes nothing; an empty buffer's root is the
 * transmitter's own link.
 */
class CreditRootTest {
    @Test
    void shouldPackAndUnpackEveryFieldWhenNodesAndPortsAreAtTheirLimits() {
        long r = CreditRoot.of(CreditRoot.CONGESTION, 12, 0, 7, 0);
        assertThat(r).isNotNegative();
        assertThat(CreditRoot.kind(r)).isEqualTo(CreditRoot.CONGESTION);
        assertThat(CreditRoot.node(r)).isEqualTo(12);
        assertThat(CreditRoot.port(r)).isZero();
        assertThat(CreditRoot.holder(r)).isEqualTo(7);
        assertThat(CreditRoot.depth(r)).isZero();
        long big = CreditRoot.of(CreditRoot.UNKNOWN, (1 << 28) - 2, 4093, -1, 500);
        assertThat(CreditRoot.kind(big)).isEqualTo(CreditRoot.UNKNOWN);
        assertThat(CreditRoot.node(big)).isEqualTo((1 << 28) - 2);
        assertThat(CreditRoot.port(big)).isEqualTo(4093);
        assertThat(CreditRoot.holder(big)).isEqualTo(-1);
        assertThat(CreditRoot.depth(big)).as("saturates").isEqualTo(CreditRoot.MAX_DEPTH);
        assertThat(CreditRoot.port(CreditRoot.heldFor(r, 3))).isZero();
        assertThat(CreditRoot.holder(CreditRoot.heldFor(r, 3))).isEqualTo(3);
    }

    @Test
    void shouldKeepTheRootOfTheUpdateThatEndsAStallOneHopFurtherWhenTheCreditsCoverThePacket() {
        CreditGate gate = new CreditGate(2 * 4160, now -> {});
        gate.owner(20, 5);
        gate.consume(3, 4122);
        gate.consume(3, 4122);
        assertThat(gate.admit(100, 3, 4122)).isFalse();
        assertThat(gate.heldBack(3)).as("waiting now").isTrue();
        long far = CreditRoot.of(CreditRoot.CONGESTION, 30, 2, 2, 0);
        gate.onUpdate(200, 3, 2 * 65 + 10, CreditRoot.of(CreditRoot.CONGESTION, 31, 1, 1, 0));
        assertThat(gate.root(3)).as("10 blocks do not end the stall: its root is not this update's")
                .isEqualTo(CreditRoot.NONE);
        gate.onUpdate(300, 3, 3 * 65, far);
        assertThat(CreditRoot.node(gate.root(3))).isEqualTo(30);
        assertThat(CreditRoot.port(gate.root(3))).isEqualTo(2);
        assertThat(CreditRoot.depth(gate.root(3))).as("one credit hop from here").isEqualTo(1);
        gate.consume(3, 4122);
        assertThat(gate.heldBack(3)).as("its last packet had waited").isTrue();
        gate.onUpdate(400, 3, 4 * 65, CreditRoot.EMPTY_BUFFER);
        gate.consume(3, 4122);
        assertThat(gate.heldBack(3)).as("this one went at once").isFalse();
        assertThat(gate.admit(500, 3, 4122)).isFalse();
        gate.onUpdate(600, 3, 5 * 65, CreditRoot.EMPTY_BUFFER);
        long own = gate.root(3);
        assertThat(CreditRoot.kind(own)).as("the buffer was empty when it granted them").isEqualTo(CreditRoot.ROUND_TRIP);
        assertThat(CreditRoot.node(own)).as("the transmitter's own link").isEqualTo(20);
        assertThat(CreditRoot.port(own)).isEqualTo(5);
        assertThat(CreditRoot.depth(own)).isEqualTo(1);
    }
}
