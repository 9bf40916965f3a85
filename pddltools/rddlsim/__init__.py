"""The RDDLSim protocol: messages and framing as RDDLSim's Java programs really send them, an asyncio
server any RDDLSim client can play against, a client that plays against RDDLSim's Java server, the
baseline policies and IPPC scoring.

    from pddltools.rddlsim.offline import run_rounds
    from pddltools.rddl_simulation.problems import load_problem
    result = run_rounds(load_problem("sysadmin_mdp.rddl", "sysadmin_inst_mdp__1.rddl"), "random", 30, seed=0)
"""
