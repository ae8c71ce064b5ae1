package rocelab.fabric.nic;

import rocelab.engine.Rates;

/** The RNIC port's line rate and the exact time a frame takes on its wire. */
final class LineRate {
    private final long bps;
    private final long psPerByte;

    LineRate(long bps) {
        this.bps = bps;
        this.psPerByte = Rates.exactPsPerByte(bps);
    }

    long bps() {
        return bps;
    }

    /** Serialisation time of {@code wireBytes} at line rate (a multiply when the rate divides evenly). */
    long wirePs(long wireBytes) {
        return psPerByte > 0 ? wireBytes * psPerByte : Rates.serializationPs(wireBytes, bps);
    }
}
