package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;

/** AlltoAll with PXN on a rail-optimized cluster: every network transfer stays on its rail. */
class PxnAllToAllTest {
    private static final int GPUS = 4;
    private static final long SIZE = 8_000_000;

    private static RunResult run(String algorithm) {
        return Scenarios.assemble("""
                name: pxn
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: rail-optimized, servers: 2, gpus-per-server: %d, spines: 2,
                           link: {rate: 400Gbps, delay: 500ns}}
                nvlink: {rate: 3600Gbps, latency: 1us}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: alltoall, ranks: 0-7, size: %d, algorithm: %s}
                """.formatted(GPUS, SIZE, algorithm)).run(ProgressListener.NONE);
    }

    @Test
    void shouldKeepEveryNetworkTransferOnOneRailAndDeliverEveryByte() {
        RunResult pxn = run("pxn");
        assertThat(pxn.collectives().get(0).completed()).isTrue();
        assertThat(pxn.flows()).isNotEmpty().allSatisfy(f -> {
            assertThat(f.src() % GPUS).isEqualTo(f.dst() % GPUS);
            assertThat(f.src() / GPUS).isNotEqualTo(f.dst() / GPUS);
        });
        // Every rank sends S/N to each of the 4 ranks of the other server, all of it over the network once.
        long network = pxn.flows().stream().mapToLong(FlowRecord::sizeBytes).sum();
        assertThat(network).isEqualTo(8L * 4 * (SIZE / 8));
        // Without PXN, 3 of every 4 cross-server messages change rails through a spine.
        RunResult direct = run("direct");
        assertThat(direct.flows()).anyMatch(f -> f.src() % GPUS != f.dst() % GPUS);
    }

    /**
     * On an idle rail-optimized fabric PXN's time is its ideal: each (source, destination) pair's NVLink hop is one
     * connection whose chunks stream to the proxy. With every chunk a transfer of its own, the hops shared each GPU's
     * NVLink out fairly and all ended together, so the proxies of rails 1-3 sent nothing until the whole NVLink phase
     * was over: 3 servers of 4 GPUs took 1.12x the ideal at both levels (48 MB: 1,469.0 us at flow level against 1,309.6).
     */
    @Test
    void shouldStreamTheNvlinkHopsSoThatAnIdleFabricTakesTheIdealTime() {
        for (Simulation.Model model : new Simulation.Model[] {Simulation.Model.FLOW, Simulation.Model.PACKET}) {
            RunResult r = Simulation.assemble(Scenarios.parse("""
                    name: pxn-idle
                    fabric: {mode: roce-lossless, mtu: 4096}
                    topology: {kind: rail-optimized, servers: 3, gpus-per-server: 4, spines: 2,
                               link: {rate: 200Gbps, delay: 500ns}, uplink: {rate: 400Gbps, delay: 1us}}
                    nvlink: {rate: 1800Gbps, latency: 1us}
                    nic: {cc: dcqcn, ack-every: 8}
                    traffic:
                      - {kind: alltoall, ranks: 0-11, size: 12MB, algorithm: pxn}
                    """), model).run(ProgressListener.NONE);
            CollectiveRecord c = r.collectives().get(0);
            assertThat(c.completed()).isTrue();
            double slowdown = (double) (c.endPs() - c.startPs()) / c.idealTimePs();
            assertThat(slowdown).as(model.name()).isGreaterThanOrEqualTo(1.0).isLessThan(1.02);
        }
    }
}
