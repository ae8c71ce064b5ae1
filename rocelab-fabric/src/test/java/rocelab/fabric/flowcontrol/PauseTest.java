package rocelab.fabric.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import rocelab.engine.Simulator;
import rocelab.engine.Time;
import rocelab.fabric.buffer.SharedBuffer;
import rocelab.fabric.congestion.EcnMarking;
import rocelab.fabric.link.Link;
import rocelab.fabric.packet.Ecn;
import rocelab.fabric.packet.Opcodes;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketPool;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.port.StrictPriorityScheduler;

/** Pause arithmetic: quanta of 512 bit times, held until they expire unless XON comes first; other priorities flow. */
class PauseTest {
    private final Simulator sim = new Simulator();
    private final PacketPool pool = new PacketPool(64);
    private final long[] arrivals = new long[64];
    private int arrived;
    private EgressPort port;

    private void build() {
        EcnMarking[] none = new EcnMarking[8];
        Arrays.fill(none, EcnMarking.NONE);
        port = new EgressPort(sim, 0, 100_000_000_000L, 8, new StrictPriorityScheduler(), none, false,
                new SharedBuffer(1 << 20, 1, 8));
        port.connect(new Link(sim, 0, (now, p) -> {
            arrivals[arrived++] = now;
            pool.release(p);
        }));
    }

    private void enqueue(long now, int priority) {
        Packet p = pool.acquire().initData(now, 0, 1, 0, 0, 938, 1000, Opcodes.RDMA_WRITE_MIDDLE)
                .qos(priority, 26, Ecn.ECT_0);
        p.ingressPort(0);
        port.enqueue(now, p);
    }

    @Test
    void shouldHoldPriorityFor335MicrosecondsWhenXoffIsMaximalAt100G() {
        assertThat(Headroom.pauseDurationPs(0xFFFF, 100_000_000_000L)).isEqualTo(335_539_200L);
        build();
        port.onPauseFrame(0, 3, 0xFFFF);
        enqueue(0, 3);
        enqueue(0, 5);
        sim.runUntil(Time.ms(1));
        long frame = 1020 * 80;
        assertThat(arrivals[0]).as("priority 5 is not paused").isEqualTo(frame);
        assertThat(arrivals[1]).as("priority 3 starts when the pause expires").isEqualTo(335_539_200L + frame);
        assertThat(port.pausedPs(3)).isEqualTo(335_539_200L);
    }

    @Test
    void shouldKeepStartingFramesForTheResponseTimeThenFinishTheFrameOnTheWire() {
        build();
        long response = Headroom.responsePs(100_000_000_000L); // 394 quanta at 100 Gb/s
        assertThat(response).isEqualTo(2_017_280L);
        port.pauseResponse(response);
        for (int i = 0; i < 40; i++) {
            enqueue(0, 3);
        }
        port.onPauseFrame(0, 3, 0xFFFF);
        sim.runUntil(Time.us(100));
        // 81.6 ns per 1020-byte frame: frames start at 0, 81.6, ..., 1958.4 ns (the 25th), all before 2017.28 ns;
        // the pause then takes effect, the frame on the wire finishes, the 26th waits.
        long frame = 1020 * 80;
        assertThat(arrived).isEqualTo(25);
        assertThat(arrivals[24]).isEqualTo(25 * frame);
        assertThat(port.isPaused(3)).isTrue();
        // XON acts after the same delay.
        port.onPauseFrame(Time.us(100), 3, 0);
        sim.runUntil(Time.us(100) + response - 1);
        assertThat(arrived).isEqualTo(25);
        sim.runUntil(Time.us(100) + response + frame);
        assertThat(arrived).isEqualTo(26);
        assertThat(arrivals[25]).isEqualTo(Time.us(100) + response + frame);
        assertThat(port.pausedPs(3)).as("from 2.017 us to 100 us + 2.017 us").isEqualTo(Time.us(100));
    }

    @Test
    void shouldResumeAtOnceWhenXonArrives() {
        build();
        port.onPauseFrame(0, 3, 0xFFFF);
        enqueue(0, 3);
        sim.runUntil(Time.us(10));
        assertThat(arrived).isZero();
        port.onPauseFrame(Time.us(10), 3, 0);
        sim.runUntil(Time.ms(1));
        assertThat(arrivals[0]).isEqualTo(Time.us(10) + 1020 * 80);
        assertThat(port.pauseFramesReceived(3)).isEqualTo(2);
    }

    @Test
    void shouldComputeHeadroomFromCableSpeedAndMtuWhenAsked() {
        // 100 Gb/s, 100 m: cable 2 x 100 x 1e11 / 1.98e8 / 8 = 12,627 B; response 394 quanta x 64 B = 25,216 B.
        assertThat(Headroom.cableBytes(100_000_000_000L, 100)).isEqualTo(12_627);
        assertThat(Headroom.responseBytes(100_000_000_000L)).isEqualTo(25_216);
        assertThat(Headroom.cableDelayPs(100)).isEqualTo(505_051);
        // The frame that crossed XOFF and the peer's last frame (4174 B each), and the link time until the peer stops
        // (the switch's frame 4194 B with preamble and gap, the PFC frame 84 B, cable, response) as the buffer holds
        // it: 42,121 x 4174 / 4194 = 41,920.1, rounded up.
        assertThat(Headroom.bytes(100_000_000_000L, 2 * 505_051, Headroom.responsePs(100_000_000_000L), 4174, 20))
                .isEqualTo(2 * 4174 + 41_921);
        assertThat(Headroom.cableMeters(Time.us(1))).isEqualTo(198.0, org.assertj.core.data.Offset.offset(1e-9));
    }
}
