// How the panes name ports, as React context: set per pane column from its core (a split of two
// cores names each side's ports its own way), read by every pane that writes a port.
import { createContext, useContext } from 'react';
import { numberedPort, type PortName } from '../format.js';

export const PortNameContext = createContext<PortName>(numberedPort);

export function usePortName(): PortName {
  return useContext(PortNameContext);
}
