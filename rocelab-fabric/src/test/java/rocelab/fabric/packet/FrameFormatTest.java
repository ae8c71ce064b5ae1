package rocelab.fabric.packet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Frame sizes of notifications, against the layouts of the mechanisms reference (7.6) and IBTA Annex A10. */
class FrameFormatTest {
    @Test
    void shouldSizeRoceCnpsWithTheirSixteenReservedBytes() {
        // 74 bytes untagged and 78 tagged as captured, 4 more of FCS on the wire.
        assertThat(new FrameFormat(false).cnpFrameBytes()).isEqualTo(78);
        assertThat(new FrameFormat(true).cnpFrameBytes()).isEqualTo(82);
    }

    @Test
    void shouldSizeInfinibandCnpsAsTheirBthAlone() {
        // LRH 8, BTH 12, ICRC 4, VCRC 2: Linux's hfi1 sends it with an LRH packet length of 6 words. RoCEv2's
        // 16 reserved bytes are no part of it (they made it 42 bytes).
        assertThat(FrameFormat.infiniband().cnpFrameBytes()).isEqualTo(26);
    }
}
