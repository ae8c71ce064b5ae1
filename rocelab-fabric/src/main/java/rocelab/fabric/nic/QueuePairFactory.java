package rocelab.fabric.nic;

import rocelab.engine.Simulator;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.packet.FrameFormat;

/** Creates queue pairs and registers them in the fabric's table; the only way to construct one. */
public final class QueuePairFactory {
    private QueuePairFactory() {}

    public static QueuePair create(Simulator sim, int id, Nic source, Nic destination, int entropy,
            CongestionControl cc, MessageListener listener, NicParameters params, FrameFormat frames,
            QueuePairTable table) {
        if (id != table.nextId()) {
            throw new IllegalStateException("queue pair ids must be dense");
        }
        table.lastConstants = QueuePairConstants.of(table.lastConstants, listener, params, frames,
                cc.telemetryHeaderBytes());
        QueuePair qp = new QueuePair(id, source, destination, entropy, cc, table.lastConstants, params);
        table.add(qp, sim.partition(), source.host(), destination.host());
        return qp;
    }
}
