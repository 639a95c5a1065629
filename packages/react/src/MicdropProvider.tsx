import { Micdrop } from '@openmic/client'
import type { MicdropClient } from '@openmic/client'
import { createContext, useContext } from 'react'
import type { ReactNode } from 'react'

const MicdropContext = createContext<MicdropClient>(Micdrop)

/**
 * Gives the hooks below it a client of your own. Without a provider they use the `Micdrop`
 * singleton of `@openmic/client`.
 */
export function MicdropProvider({
  client,
  children,
}: {
  client: MicdropClient
  children?: ReactNode
}) {
  return <MicdropContext.Provider value={client}>{children}</MicdropContext.Provider>
}

/** The client the hooks use: the provider's, else the `Micdrop` singleton. */
export function useMicdropClient(): MicdropClient {
  return useContext(MicdropContext)
}
