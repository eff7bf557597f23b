// The USB host side of the board's CDC serial port (what a PC's driver does):
// enumerate, raise DTR, then move bytes both ways.
//
// Unlike rp2040js's own USBCDC, an OUT transfer the device arms while the
// host has nothing to send is left pending (a real host NAKs it) instead of
// being answered at once with zero bytes, which made the device re-arm it
// every 10 us of emulated time; and what the host sends waits in an
// unbounded queue rather than a 512-byte FIFO.

import {
  DataDirection, DescriptorType, SetupRecipient, SetupType,
  createSetupPacket, getDescriptorPacket, setDeviceAddressPacket, setDeviceConfigurationPacket,
} from 'rp2040js';

const CONFIG_DESCRIPTOR_SIZE = 9;
const CDC_DATA_CLASS = 10;
const CDC_SET_CONTROL_LINE_STATE = 0x22;
const DTR_RTS = 3;

/** The bulk IN and OUT endpoint numbers of the CDC data interface. */
function dataEndpoints(d) {
  const ep = { in: -1, out: -1 };
  let data = false;
  for (let i = 0; i + 1 < d.length && d[i] >= 2; i += d[i]) {
    const type = d[i + 1];
    if (type === DescriptorType.Interface && d[i] === 9) data = d[i + 4] === 2 && d[i + 5] === CDC_DATA_CLASS;
    if (data && type === DescriptorType.Endpoint && d[i] === 7 && (d[i + 3] & 3) === 2) {
      if (d[i + 2] & 0x80) ep.in = d[i + 2] & 0xf;
      else ep.out = d[i + 2] & 0xf;
    }
  }
  return ep;
}

export class CdcHost {
  /** onData(Uint8Array): bytes from the device; onConnect(): the port is
   *  open; stats.cdcIn / cdcOut count the bytes each way (across reboots). */
  constructor(usb, stats, onData, onConnect) {
    this.usb = usb;
    this.queue = [];        // Uint8Arrays the host has yet to send
    this.queued = 0;
    this.pending = [];      // OUT transfers the device armed: their sizes
    this.descSize = null;
    this.desc = [];
    this.ep = { in: -1, out: -1 };
    this.connected = false;
    this.stats = stats;
    usb.onUSBEnabled = () => usb.resetDevice();
    usb.onResetReceived = () => usb.sendSetupPacket(setDeviceAddressPacket(1));
    usb.onEndpointWrite = (endpoint, buffer) => {
      if (endpoint === 0) this._control(buffer, onConnect);
      else if (endpoint === this.ep.in) {
        this.stats.cdcIn += buffer.length;
        onData(buffer);
      }
    };
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== this.ep.out) return;
      this.pending.push(size);
      this._feed();
    };
  }

  _control(buffer, onConnect) {
    const usb = this.usb;
    if (buffer.length === 0) {       // a status stage: the next enumeration step
      if (this.descSize === null) {
        usb.sendSetupPacket(getDescriptorPacket(DescriptorType.Configration, CONFIG_DESCRIPTOR_SIZE));
      } else if (!this.connected && this.ep.out >= 0) {
        usb.sendSetupPacket(createSetupPacket({
          dataDirection: DataDirection.HostToDevice, type: SetupType.Class,
          recipient: SetupRecipient.Device, bRequest: CDC_SET_CONTROL_LINE_STATE,
          wValue: DTR_RTS, wIndex: 0, wLength: 0,
        }));
        this.connected = true;
        onConnect();
      }
      return;
    }
    if (this.descSize === null && buffer.length === CONFIG_DESCRIPTOR_SIZE &&
        buffer[1] === DescriptorType.Configration) {
      this.descSize = buffer[2] | (buffer[3] << 8);
      usb.sendSetupPacket(getDescriptorPacket(DescriptorType.Configration, this.descSize));
      return;
    }
    if (this.descSize !== null && this.desc.length < this.descSize) {
      this.desc.push(...buffer);
      if (this.desc.length >= this.descSize) {
        this.ep = dataEndpoints(this.desc);
        usb.sendSetupPacket(setDeviceConfigurationPacket(1));
      }
    }
  }

  /** Queue bytes for the device (what a client wrote to the serial port). */
  send(bytes) {
    if (!bytes.length) return;
    this.queue.push(bytes);
    this.queued += bytes.length;
    this._feed();
  }

  _feed() {
    while (this.pending.length && this.queued) {
      const size = this.pending.shift();
      const out = new Uint8Array(Math.min(size, this.queued));
      let n = 0;
      while (n < out.length) {
        const head = this.queue[0];
        const take = Math.min(head.length, out.length - n);
        out.set(head.subarray(0, take), n);
        n += take;
        if (take === head.length) this.queue.shift();
        else this.queue[0] = head.subarray(take);
      }
      this.queued -= n;
      this.stats.cdcOut += n;
      this.usb.endpointReadDone(this.ep.out, out);
    }
  }
}
